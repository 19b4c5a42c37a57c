import type { FlexBox, FlexBubble, FlexComponent } from "~/domain/member-messages/flex";
import { cn } from "~/lib/cn";

/**
 * How a message looks on a member's phone (issue 16: the composer's previews): a LINE chat with the Flex card or
 * text bubble, a text message, an e-mail. Drawn from the same structures the delivery sends (flex.ts), so what
 * the admin sees is what goes out; the colours come from the bubble itself.
 */

const TEXT_SIZE: Record<string, string> = {
  xxs: "text-[10px]",
  xs: "text-xs",
  sm: "text-sm",
  md: "text-base",
  lg: "text-lg",
  xl: "text-xl",
  xxl: "text-2xl",
};

function FlexPart({ part }: { part: FlexComponent }) {
  if (part.type === "text") {
    return (
      <p
        className={cn(
          TEXT_SIZE[part.size ?? "md"],
          part.weight === "bold" && "font-semibold",
          part.wrap ? "break-words whitespace-pre-wrap" : "truncate",
          part.align === "end" && "text-right",
          part.flex === 0 ? "shrink-0" : "min-w-0 flex-1",
        )}
        style={{ color: part.color }}
      >
        {part.text}
      </p>
    );
  }
  if (part.type === "separator") return <hr className="border-black/10" />;
  if (part.type === "button") {
    return (
      <span
        className="block rounded-md px-3 py-2 text-center text-sm font-semibold text-white"
        style={{ backgroundColor: part.color ?? "#06c755" }}
      >
        {part.action.label}
      </span>
    );
  }
  return <FlexBoxView box={part} />;
}

function FlexBoxView({ box, className }: { box: FlexBox; className?: string }) {
  const row = box.layout !== "vertical";
  return (
    <div
      className={cn(
        row ? "flex items-baseline gap-2" : "flex flex-col",
        !row && (box.spacing === "sm" ? "gap-1" : box.spacing === "md" ? "gap-2" : box.spacing === "lg" ? "gap-3" : ""),
        box.margin === "md" && "mt-1",
        className,
      )}
      style={{
        backgroundColor: box.backgroundColor,
        borderRadius: box.cornerRadius,
        padding: box.paddingAll,
      }}
    >
      {box.contents.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed structure, never reordered
        <FlexPart key={i} part={part} />
      ))}
    </div>
  );
}

/** A LINE chat: the brand's avatar and the Flex bubble (or a text bubble). */
export function LinePreview({
  bubble,
  text,
  label,
  testId,
}: {
  bubble?: FlexBubble | null;
  text?: string | null;
  label: string;
  testId?: string;
}) {
  return (
    <figure className="rounded-2xl bg-[#8cabd9]/35 p-3" data-testid={testId}>
      <figcaption className="mb-2 text-xs font-medium text-ink">{label}</figcaption>
      <div className="flex items-start gap-2">
        <span
          aria-hidden="true"
          className="grid size-8 shrink-0 place-items-center rounded-full bg-white font-serif text-sm font-bold text-brand-800"
        >
          漢
        </span>
        {bubble ? (
          <div className="w-full max-w-[18rem] overflow-hidden rounded-2xl bg-white shadow-sm">
            {bubble.header ? (
              <FlexBoxView box={{ ...bubble.header, backgroundColor: bubble.styles?.header?.backgroundColor }} />
            ) : null}
            <FlexBoxView box={bubble.body} className="px-4 pb-4" />
            {bubble.footer ? <FlexBoxView box={bubble.footer} className="px-4 pb-4" /> : null}
          </div>
        ) : (
          <p className="max-w-[18rem] rounded-2xl rounded-tl-sm bg-white px-3 py-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-ink shadow-sm">
            {text}
          </p>
        )}
      </div>
    </figure>
  );
}

/** A text message as a phone shows it. */
export function SmsPreview({ text, label, testId }: { text: string; label: string; testId?: string }) {
  return (
    <figure className="rounded-2xl bg-sand/60 p-3" data-testid={testId}>
      <figcaption className="mb-2 text-xs font-medium text-ink">{label}</figcaption>
      <p className="max-w-[18rem] rounded-2xl rounded-bl-sm bg-white px-3 py-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-ink shadow-sm">
        {text}
      </p>
    </figure>
  );
}

/** An e-mail: subject, the card with its paragraphs, the footer. */
export function EmailPreview({
  subject,
  body,
  footer,
  label,
  testId,
}: {
  subject: string;
  body: string;
  footer: string;
  label: string;
  testId?: string;
}) {
  const paragraphs = body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <figure className="rounded-2xl bg-[#faf8f4] p-3 ring-1 ring-line" data-testid={testId}>
      <figcaption className="mb-2 text-xs font-medium text-ink">{label}</figcaption>
      <p className="font-serif text-base font-bold tracking-[0.2em] text-brand-800">漢生活</p>
      <div className="mt-2 rounded-xl border border-line bg-white p-4">
        <p className="font-semibold break-words">{subject}</p>
        {paragraphs.map((p) => (
          <p key={p} className="mt-2 text-sm leading-relaxed break-words whitespace-pre-line">
            {p}
          </p>
        ))}
      </div>
      <p className="mt-2 text-xs text-muted">{footer}</p>
    </figure>
  );
}
