import { useRef, useState } from "react";
import { ChevronLeft, ChevronRight, Quote } from "lucide-react";
import { TESTIMONIAL_SCROLL_STEP_PX } from "@cartner/contract";
import { Avatar, Button, Container } from "../../components/ui/index.ts";
import { testimonials } from "./testimonials.ts";

function prefersReducedMotion(): boolean {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

export function Testimonials() {
  const scroller = useRef<HTMLUListElement>(null);
  const [edges, setEdges] = useState({ atStart: true, atEnd: false });

  function scrollByStep(direction: -1 | 1) {
    scroller.current?.scrollBy?.({
      left: direction * TESTIMONIAL_SCROLL_STEP_PX,
      behavior: prefersReducedMotion() ? "auto" : "smooth",
    });
  }

  function onScroll() {
    const element = scroller.current;
    if (!element) return;
    const atStart = element.scrollLeft <= 4;
    const atEnd = element.scrollLeft + element.clientWidth >= element.scrollWidth - 4;
    if (atStart !== edges.atStart || atEnd !== edges.atEnd) setEdges({ atStart, atEnd });
  }

  return (
    <section
      aria-labelledby="testimonials-title"
      className="below-the-fold py-16 [contain-intrinsic-size:auto_36rem] sm:py-24"
    >
      <Container>
        <div className="flex flex-wrap items-end justify-between gap-6">
          <div className="max-w-2xl">
            <p className="font-display text-sm font-semibold tracking-widest text-accent-700 uppercase">
              Loved by groups
            </p>
            <h2
              id="testimonials-title"
              className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl"
            >
              What cartners say
            </h2>
          </div>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="icon"
              aria-label="Previous testimonials"
              aria-controls="testimonial-list"
              disabled={edges.atStart}
              onClick={() => scrollByStep(-1)}
            >
              <ChevronLeft aria-hidden="true" className="size-5" />
            </Button>
            <Button
              variant="secondary"
              size="icon"
              aria-label="Next testimonials"
              aria-controls="testimonial-list"
              disabled={edges.atEnd}
              onClick={() => scrollByStep(1)}
            >
              <ChevronRight aria-hidden="true" className="size-5" />
            </Button>
          </div>
        </div>

        <ul
          id="testimonial-list"
          ref={scroller}
          onScroll={onScroll}
          tabIndex={0}
          aria-label="Testimonials"
          className="-mx-4 mt-10 flex snap-x snap-mandatory scroll-px-4 gap-5 overflow-x-auto px-4 pt-1 pb-6 [scrollbar-width:thin] sm:-mx-6 sm:scroll-px-6 sm:px-6 lg:-mx-8 lg:scroll-px-8 lg:px-8"
        >
          {testimonials.map((testimonial) => (
            <li
              key={testimonial.name}
              className="flex w-[18rem] shrink-0 snap-start flex-col rounded-card bg-surface p-6 shadow-soft ring-1 ring-slate-900/5 sm:w-[20rem]"
            >
              <Quote aria-hidden="true" className="size-7 text-accent-500" />
              <blockquote className="mt-3 flex-1 leading-relaxed text-slate-700">
                <p>&ldquo;{testimonial.quote}&rdquo;</p>
              </blockquote>
              <div className="mt-6 flex items-center gap-3">
                <Avatar seed={testimonial.name} name={testimonial.name} className="size-11" />
                <div>
                  <p className="font-semibold text-ink">{testimonial.name}</p>
                  <p className="text-sm text-slate-600">{testimonial.title}</p>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
