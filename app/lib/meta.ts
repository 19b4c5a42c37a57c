import type { MessageKey, Messages } from "./i18n";
import { format } from "./i18n";

type MatchLike = { id: string; loaderData?: unknown } | undefined;

/** Title and description for a page, in the reader's language (the catalog comes from the root match). */
export function pageMeta(
  matches: readonly MatchLike[],
  titleKey: MessageKey,
  descriptionKey: MessageKey = "meta.description",
) {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { messages?: Messages } | undefined;
  const messages = root?.messages;
  if (!messages) return [{ title: "漢生活" }];
  const title =
    titleKey === "page.home.title" ? messages[titleKey] : `${messages[titleKey]}｜${messages["brand.name"]}`;
  return [{ title }, { name: "description", content: format(messages[descriptionKey]) }];
}
