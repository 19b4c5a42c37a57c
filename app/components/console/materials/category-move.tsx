import { Form } from "react-router";
import { ChevronRight } from "~/components/ui/icons";
import { cn } from "~/lib/cn";
import { useConsoleT } from "../use-console-t";

/** Up and down one place (a button each, named for the category; disabled at either end). */
export function MoveButtons({ id, name, first, last }: { id: string; name: string; first: boolean; last: boolean }) {
  const t = useConsoleT();
  return (
    <Form method="post" className="flex gap-1">
      <input type="hidden" name="id" value={id} />
      {(["up", "down"] as const).map((direction) => (
        <button
          key={direction}
          type="submit"
          name="direction"
          value={direction}
          disabled={direction === "up" ? first : last}
          aria-label={t(direction === "up" ? "console.categories.moveUp" : "console.categories.moveDown", { name })}
          className="inline-flex size-11 items-center justify-center rounded-full text-ink transition-colors hover:bg-sand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-30 disabled:hover:bg-transparent"
        >
          <ChevronRight aria-hidden className={cn("size-5", direction === "up" ? "-rotate-90" : "rotate-90")} />
        </button>
      ))}
    </Form>
  );
}
