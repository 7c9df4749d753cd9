import { describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { ProductImage } from "./ProductImage.tsx";
import { smallPhoto } from "../../lib/product-photos.ts";

const PHOTO = "http://localhost:3000/api/catalog/images/feed-a0000-1a2b3c4d-0123456789-800.webp";
const DRAWN = "http://localhost:3000/api/catalog/images/stoneware-mug-0123456789.svg";

describe("ProductImage", () => {
  it("offers a photo's two sizes, for the width it shows at", () => {
    render(<ProductImage src={PHOTO} alt="Red Mug" sizes="(min-width: 768px) 50vw, 100vw" />);
    const img = screen.getByRole("img", { name: "Red Mug" });
    expect(img).toHaveAttribute("src", PHOTO);
    expect(img).toHaveAttribute(
      "srcset",
      `${PHOTO.replace("-800.webp", "-320.webp")} 320w, ${PHOTO} 800w`,
    );
    expect(img).toHaveAttribute("sizes", "(min-width: 768px) 50vw, 100vw");
  });

  it("shows a drawn picture as it is, and a quiet stand-in when an image fails", () => {
    render(<ProductImage src={DRAWN} alt="Stoneware Mug" />);
    const img = screen.getByRole("img", { name: "Stoneware Mug" });
    expect(img).toHaveAttribute("src", DRAWN);
    expect(img).not.toHaveAttribute("srcset");
    fireEvent.error(img);
    expect(screen.getByRole("img", { name: "Stoneware Mug" }).tagName).toBe("DIV");
  });

  it("takes a photo's small size for a thumbnail", () => {
    expect(smallPhoto(PHOTO)).toBe(PHOTO.replace("-800.webp", "-320.webp"));
    expect(smallPhoto(DRAWN)).toBe(DRAWN);
  });
});
