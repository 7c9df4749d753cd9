import { Features } from "./Features.tsx";
import { Hero } from "./Hero.tsx";
import { HowItWorks } from "./HowItWorks.tsx";
import { Testimonials } from "./Testimonials.tsx";

export function LandingPage() {
  return (
    <>
      <title>Cartner — shop together</title>
      <Hero />
      <Features />
      <HowItWorks />
      <Testimonials />
    </>
  );
}
