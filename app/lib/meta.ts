import type { MessageKey, Messages, ShellMessagesJson } from "./i18n";
import { format, shellMessages } from "./i18n";

type MatchLike = { id: string; loaderData?: unknown } | undefined;

/**
 * Title and description for a page, in the reader's language: the catalog comes from the root
 * match, plus the page's own namespace when its loader sends one.
 */
export function pageMeta(
  matches: readonly MatchLike[],
  titleKey: MessageKey,
  descriptionKey: MessageKey = "meta.description",
) {
  const messages: Partial<Messages> = {};
  for (const match of matches) {
    const data = match?.loaderData as { messages?: Partial<Messages> | ShellMessagesJson } | undefined;
    if (data?.messages) Object.assign(messages, shellMessages(data.messages));
  }
  const title = messages[titleKey];
  if (!title) return [{ title: "漢生活" }];
  const brand = messages["brand.name"] ?? "漢生活";
  return [
    { title: titleKey === "page.home.title" ? title : `${title}｜${brand}` },
    { name: "description", content: format(messages[descriptionKey] ?? "") },
  ];
}
