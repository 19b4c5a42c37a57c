import type { LineMessagingClient } from "./messaging.server";

/**
 * LINE's rich-menu API (Messaging API reference, "Rich menu"; ADR 049) on the Messaging client: the same token,
 * timeout and refusals (429 and 5xx retryable DeliveryErrors, the rest permanent).
 *
 * - create `POST /v2/bot/richmenu` → `{ richMenuId }`; its image `POST /v2/bot/richmenu/{id}/content` on the data
 *   host (image/png or image/jpeg); delete `DELETE /v2/bot/richmenu/{id}`;
 * - the default menu (what a user without a menu of their own sees) `POST /v2/bot/user/all/richmenu/{id}`, and
 *   `DELETE /v2/bot/user/all/richmenu`;
 * - one user `POST /v2/bot/user/{userId}/richmenu/{id}`, `DELETE /v2/bot/user/{userId}/richmenu`,
 *   `GET /v2/bot/user/{userId}/richmenu`;
 * - up to 500 users `POST /v2/bot/richmenu/bulk/link` `{ richMenuId, userIds }` and `…/bulk/unlink` `{ userIds }`
 *   (LINE answers 202 and links them shortly after).
 *
 * Linking is idempotent at LINE (linking a user to the menu they have changes nothing), so a retry is safe
 * without a retry key.
 */
export const LINE_RICH_MENU_BULK_MAX = 500;

export type LineRichMenuObject = {
  size: { width: number; height: number };
  selected: boolean;
  name: string;
  chatBarText: string;
  areas: Array<{
    bounds: { x: number; y: number; width: number; height: number };
    action: { type: "uri"; uri: string; label?: string } | { type: "message"; text: string; label?: string };
  }>;
};

const path = (...parts: string[]) => parts.map(encodeURIComponent).join("/");

export function createLineRichMenuClient(line: Pick<LineMessagingClient, "call" | "refusal">) {
  async function ok(p: string, init: Parameters<LineMessagingClient["call"]>[1]): Promise<string> {
    const { response, text } = await line.call(p, init);
    if (!response.ok) throw line.refusal(response.status, text);
    return text;
  }
  function checkBulk(userIds: string[]) {
    if (userIds.length < 1 || userIds.length > LINE_RICH_MENU_BULK_MAX) {
      throw new RangeError(`a bulk rich-menu call takes 1 to ${LINE_RICH_MENU_BULK_MAX} users, not ${userIds.length}`);
    }
  }
  return {
    async create(menu: LineRichMenuObject): Promise<string> {
      const text = await ok("/v2/bot/richmenu", { method: "POST", body: menu });
      const id = (JSON.parse(text) as { richMenuId?: unknown }).richMenuId;
      if (typeof id !== "string" || !id) throw new Error("LINE answered a rich menu without its id");
      return id;
    },
    async uploadImage(richMenuId: string, bytes: Uint8Array, contentType: "image/png" | "image/jpeg") {
      await ok(`/v2/bot/richmenu/${path(richMenuId)}/content`, { method: "POST", file: { bytes, contentType } });
    },
    async remove(richMenuId: string) {
      await ok(`/v2/bot/richmenu/${path(richMenuId)}`, { method: "DELETE" });
    },
    async setDefault(richMenuId: string) {
      await ok(`/v2/bot/user/all/richmenu/${path(richMenuId)}`, { method: "POST" });
    },
    async clearDefault() {
      await ok("/v2/bot/user/all/richmenu", { method: "DELETE" });
    },
    async link(userId: string, richMenuId: string) {
      await ok(`/v2/bot/user/${path(userId)}/richmenu/${path(richMenuId)}`, { method: "POST" });
    },
    async unlink(userId: string) {
      await ok(`/v2/bot/user/${path(userId)}/richmenu`, { method: "DELETE" });
    },
    async bulkLink(richMenuId: string, userIds: string[]) {
      checkBulk(userIds);
      await ok("/v2/bot/richmenu/bulk/link", { method: "POST", body: { richMenuId, userIds } });
    },
    async bulkUnlink(userIds: string[]) {
      checkBulk(userIds);
      await ok("/v2/bot/richmenu/bulk/unlink", { method: "POST", body: { userIds } });
    },
    /** The menu linked to the user (not the default), or null. */
    async linkedTo(userId: string): Promise<string | null> {
      const { response, text } = await line.call(`/v2/bot/user/${path(userId)}/richmenu`, { method: "GET" });
      if (response.status === 404) return null;
      if (!response.ok) throw line.refusal(response.status, text);
      return String((JSON.parse(text) as { richMenuId?: unknown }).richMenuId ?? "") || null;
    },
  };
}

export type LineRichMenuClient = ReturnType<typeof createLineRichMenuClient>;
