import { LogoMark } from "../../components/illustrations/LogoMark.tsx";
import { Container } from "../../components/ui/index.ts";

// The footer lists navigation, legal and social labels only, without links.
const columns = [
  { title: "Navigation", items: ["Home", "Explore Marketplace", "Sessions", "My Cart"] },
  { title: "Legal", items: ["Privacy Policy", "Terms of Service", "Cookie Policy"] },
  { title: "Social", items: ["Instagram", "Facebook", "X (Twitter)", "TikTok"] },
];

export function Footer() {
  return (
    <footer className="mt-20 border-t border-slate-200 bg-white">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-12 lg:grid-cols-4">
        <div className="col-span-2 flex flex-col gap-3 lg:col-span-1">
          <p className="flex items-center gap-2.5 font-display text-lg font-bold text-ink">
            <LogoMark className="size-8" />
            Cartner
          </p>
          <p className="max-w-xs text-sm leading-relaxed text-slate-600">
            Shop together: one live cart for your group and a fair split for everyone.
          </p>
        </div>
        {columns.map((column) => (
          <div key={column.title}>
            <h2 className="font-display text-sm font-semibold tracking-wide text-ink">
              {column.title}
            </h2>
            <ul className="mt-3 space-y-2 text-sm text-slate-600">
              {column.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ))}
      </Container>
      <div className="border-t border-slate-200">
        <Container className="py-6 text-sm text-slate-600">© 2026 Cartner</Container>
      </div>
    </footer>
  );
}
