/** Static sample testimonials for the landing page: nine, each with name, title and quote. */
export interface Testimonial {
  name: string;
  title: string;
  quote: string;
}

export const testimonials: Testimonial[] = [
  {
    name: "Maya Thompson",
    title: "Mom of three",
    quote:
      "Our grocery run used to be a chain of texts. Now everyone adds what they need to one cart and I just check out.",
  },
  {
    name: "Daniel Okafor",
    title: "Grad student, four roommates",
    quote:
      "Splitting the house shop was always awkward. Cartner shows exactly who owes what, down to the cent.",
  },
  {
    name: "Sofia Marin",
    title: "Wedding planner",
    quote:
      "I open a session for each couple and they fill it together from two phones. It's the calmest part of the planning.",
  },
  {
    name: "Liam Chen",
    title: "Weekend hiker",
    quote:
      "Our group plans camping trips in one session. Someone adds the tent, someone adds the snacks, nobody doubles up.",
  },
  {
    name: "Aisha Rahman",
    title: "Newlywed",
    quote:
      "We furnished our first apartment on Cartner. Watching the cart update live on both our phones felt like magic.",
  },
  {
    name: "Jonas Becker",
    title: "Office manager",
    quote:
      "Team lunches and birthday gifts go through one passcode-protected session. No more chasing receipts.",
  },
  {
    name: "Priya Nair",
    title: "College senior",
    quote:
      "The split is fair without anyone doing maths at midnight. That alone saved our group chat.",
  },
  {
    name: "Carlos Mendes",
    title: "Dad and weekend chef",
    quote:
      "The kids add their snack requests and I review the cart. The list stays honest and the budget intact.",
  },
  {
    name: "Hannah Kim",
    title: "Solo shopper",
    quote:
      "I keep a solo session as my running wishlist. It follows me from laptop to phone without a hitch.",
  },
];
