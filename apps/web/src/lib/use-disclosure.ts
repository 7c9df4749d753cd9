import { useEffect, useId, useRef, useState } from "react";

/**
 * A form opened by a button: whether it is open, the id the button controls, and `close()`, after
 * which the focus goes back to the button that opened it (saved or cancelled), so a keyboard user
 * carries on where they were.
 */
export function useDisclosure() {
  const formId = useId();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (open || !refocus.current) return;
    refocus.current = false;
    toggleRef.current?.focus();
  }, [open]);
  const close = () => {
    refocus.current = true;
    setOpen(false);
  };
  return { formId, open, show: () => setOpen(true), close, toggleRef };
}
