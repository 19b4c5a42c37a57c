import { randomBytes } from "node:crypto";
import express, { type Request, type Response, type Router } from "express";
import { z } from "zod";
import { readImageHeader } from "../../app/domain/line/rich-menu-image";
import { RICH_MENU_RULES } from "../../app/domain/line/rich-menu-input";

/**
 * The local LINE fake's rich menus (ADR 049): LINE's rich-menu endpoints with its checks, status codes and error
 * bodies, state in memory (menus, images, the default menu, each user's link). Mounted by the Messaging fake
 * (local-messaging.ts) on the same router, so under /__line, behind the same token check.
 *
 * Controls for development and tests (not LINE's): `GET /messaging/richmenu` (menus, default, links, the calls
 * made), `GET /messaging/richmenu/users/:userId` (which menu that user sees), `POST /messaging/richmenu/fail`
 * `{ count, status }` (the next `count` rich-menu calls answer `status`, e.g. 500).
 */
type Helpers = {
  authorized: (req: Request, res: Response) => boolean;
  error: (res: Response, status: number, message: string, details?: { message: string; property: string }[]) => void;
  invalid: (res: Response, issues: z.ZodIssue[]) => void;
};

export type LocalRichMenu = {
  richMenuId: string;
  menu: z.infer<typeof richMenuObject>;
  image: { type: string; bytes: number } | null;
};

export type RichMenuCall = { method: string; path: string; userIds: number; status: number };

const USER_ID = /^U[0-9a-f]{32}$/;
const MAX_MENUS = 1000;

const action = z.discriminatedUnion("type", [
  z
    .object({ type: z.literal("uri"), uri: z.string().min(1).max(1000), label: z.string().max(20).optional() })
    .passthrough(),
  z
    .object({ type: z.literal("message"), text: z.string().min(1).max(300), label: z.string().max(20).optional() })
    .passthrough(),
  z
    .object({ type: z.literal("postback"), data: z.string().min(1).max(300), label: z.string().max(20).optional() })
    .passthrough(),
]);

const richMenuObject = z
  .object({
    size: z.object({
      width: z
        .number()
        .int()
        .min(RICH_MENU_RULES.minWidth, "must be between 800 and 2500")
        .max(RICH_MENU_RULES.maxWidth, "must be between 800 and 2500"),
      height: z.number().int().min(RICH_MENU_RULES.minHeight, "must be greater than or equal to 250"),
    }),
    selected: z.boolean(),
    name: z.string().min(1).max(RICH_MENU_RULES.titleMax, "size must be between 1 and 300"),
    chatBarText: z.string().min(1).max(RICH_MENU_RULES.chatBarMax, "size must be between 1 and 14"),
    areas: z
      .array(
        z.object({
          bounds: z.object({
            x: z.number().int().min(0),
            y: z.number().int().min(0),
            width: z.number().int().min(1),
            height: z.number().int().min(1),
          }),
          action,
        }),
      )
      .min(1, "size must be between 1 and 20")
      .max(RICH_MENU_RULES.maxAreas, "size must be between 1 and 20"),
  })
  .superRefine((m, ctx) => {
    if (m.size.width / m.size.height < RICH_MENU_RULES.minAspect)
      ctx.addIssue({ code: "custom", path: ["size"], message: "aspect ratio (width / height) must be at least 1.45" });
    m.areas.forEach((a, i) => {
      const b = a.bounds;
      if (b.x + b.width > m.size.width || b.y + b.height > m.size.height)
        ctx.addIssue({ code: "custom", path: ["areas", i, "bounds"], message: "must be within the rich menu size" });
    });
  });

export function mountLocalRichMenus(router: Router, { authorized, error, invalid }: Helpers) {
  const menus = new Map<string, LocalRichMenu>();
  const links = new Map<string, string>();
  const calls: RichMenuCall[] = [];
  let defaultMenu: string | null = null;
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const json = express.json({ limit: "1mb" });
  const image = express.raw({ type: () => true, limit: RICH_MENU_RULES.maxBytes + 1 });

  /** The token, then an injected failure (the calls are recorded with their answer). */
  function admit(req: Request, res: Response, userIds = 0): boolean {
    res.once("finish", () => calls.push({ method: req.method, path: req.path, userIds, status: res.statusCode }));
    if (!authorized(req, res)) return false;
    if (failures.count > 0) {
      failures.count--;
      error(res, failures.status, failures.status === 429 ? "Too many requests" : "Internal server error");
      return false;
    }
    return true;
  }

  const menuOf = (res: Response, id: string, withImage = false): LocalRichMenu | null => {
    const menu = menus.get(id);
    if (!menu) {
      error(res, 404, "richmenu not found");
      return null;
    }
    if (withImage && !menu.image) {
      error(res, 400, "must upload richmenu image before applying it to user");
      return null;
    }
    return menu;
  };

  router.post("/v2/bot/richmenu", json, (req, res) => {
    if (!admit(req, res)) return;
    const body = richMenuObject.safeParse(req.body);
    if (!body.success) return invalid(res, body.error.issues);
    if (menus.size >= MAX_MENUS) return error(res, 400, "The maximum number of rich menus has been reached");
    const richMenuId = `richmenu-${randomBytes(16).toString("hex")}`;
    menus.set(richMenuId, { richMenuId, menu: body.data, image: null });
    res.json({ richMenuId });
  });

  // The data host's upload (api-data.line.me on LINE): PNG or JPEG, ≤ 1 MB, the menu's size exactly, once.
  router.post("/v2/bot/richmenu/:richMenuId/content", (req, res, next) => {
    if (!admit(req, res)) return;
    const type = (req.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "image/png" && type !== "image/jpeg") return error(res, 415, "Unsupported Media Type");
    image(req, res, (err?: unknown) => {
      if (err) {
        if ((err as { type?: string }).type === "entity.too.large") return error(res, 413, "Request Entity Too Large");
        return next(err);
      }
      const menu = menuOf(res, String(req.params.richMenuId));
      if (!menu) return;
      if (menu.image) return error(res, 409, "An image has already been uploaded to the richmenu");
      const bytes = req.body instanceof Buffer ? req.body : Buffer.alloc(0);
      if (bytes.length > RICH_MENU_RULES.maxBytes) return error(res, 413, "Request Entity Too Large");
      const header = readImageHeader(bytes);
      if (!header || header.type !== type) return error(res, 400, "invalid image");
      if (header.width !== menu.menu.size.width || header.height !== menu.menu.size.height)
        return error(res, 400, "Image size must match the rich menu size");
      menu.image = { type, bytes: bytes.length };
      res.json({});
    });
  });

  router.get("/v2/bot/richmenu/list", (req, res) => {
    if (!admit(req, res)) return;
    res.json({ richmenus: [...menus.values()].map((m) => ({ richMenuId: m.richMenuId, ...m.menu })) });
  });

  router.get("/v2/bot/richmenu/:richMenuId", (req, res) => {
    if (!admit(req, res)) return;
    const menu = menuOf(res, String(req.params.richMenuId));
    if (menu) res.json({ richMenuId: menu.richMenuId, ...menu.menu });
  });

  router.delete("/v2/bot/richmenu/:richMenuId", (req, res) => {
    if (!admit(req, res)) return;
    const id = String(req.params.richMenuId);
    if (!menuOf(res, id)) return;
    menus.delete(id);
    for (const [user, menu] of links) if (menu === id) links.delete(user);
    if (defaultMenu === id) defaultMenu = null;
    res.json({});
  });

  const bulkUsers = z
    .array(z.string().regex(USER_ID, "invalid user id"))
    .min(1)
    .max(500, "size must be between 1 and 500");

  router.post("/v2/bot/richmenu/bulk/link", json, (req, res) => {
    const body = z.object({ richMenuId: z.string().min(1), userIds: bulkUsers }).safeParse(req.body);
    if (!admit(req, res, body.success ? body.data.userIds.length : 0)) return;
    if (!body.success) return invalid(res, body.error.issues);
    if (!menuOf(res, body.data.richMenuId, true)) return;
    for (const user of body.data.userIds) links.set(user, body.data.richMenuId);
    res.status(202).json({});
  });

  router.post("/v2/bot/richmenu/bulk/unlink", json, (req, res) => {
    const body = z.object({ userIds: bulkUsers }).safeParse(req.body);
    if (!admit(req, res, body.success ? body.data.userIds.length : 0)) return;
    if (!body.success) return invalid(res, body.error.issues);
    for (const user of body.data.userIds) links.delete(user);
    res.status(202).json({});
  });

  router.post("/v2/bot/user/all/richmenu/:richMenuId", (req, res) => {
    if (!admit(req, res)) return;
    const menu = menuOf(res, String(req.params.richMenuId), true);
    if (!menu) return;
    defaultMenu = menu.richMenuId;
    res.json({});
  });

  router.delete("/v2/bot/user/all/richmenu", (req, res) => {
    if (!admit(req, res)) return;
    defaultMenu = null;
    res.json({});
  });

  const userOf = (req: Request, res: Response): string | null => {
    const user = String(req.params.userId);
    if (USER_ID.test(user)) return user;
    error(res, 400, "The value for the 'userId' parameter is invalid");
    return null;
  };

  router.post("/v2/bot/user/:userId/richmenu/:richMenuId", (req, res) => {
    if (!admit(req, res, 1)) return;
    const user = userOf(req, res);
    if (!user || !menuOf(res, String(req.params.richMenuId), true)) return;
    links.set(user, String(req.params.richMenuId));
    res.json({});
  });

  router.delete("/v2/bot/user/:userId/richmenu", (req, res) => {
    if (!admit(req, res, 1)) return;
    const user = userOf(req, res);
    if (!user) return;
    links.delete(user);
    res.json({});
  });

  router.get("/v2/bot/user/:userId/richmenu", (req, res) => {
    if (!admit(req, res)) return;
    const user = userOf(req, res);
    if (!user) return;
    const linked = links.get(user);
    if (!linked) return error(res, 404, "the user has no richmenu");
    res.json({ richMenuId: linked });
  });

  // ---- The fake's own controls ----

  router.get("/messaging/richmenu", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({
      menus: [...menus.values()].map((m) => ({ richMenuId: m.richMenuId, name: m.menu.name, image: m.image })),
      defaultMenu,
      links: links.size,
      calls,
    });
  });

  router.get("/messaging/richmenu/users/:userId", (req, res) => {
    const user = String(req.params.userId);
    const linked = links.get(user) ?? null;
    const shown = linked ?? defaultMenu;
    res.setHeader("Cache-Control", "no-store");
    res.json({ userId: user, linked, defaultMenu, shown, name: shown ? (menus.get(shown)?.menu.name ?? null) : null });
  });

  router.post("/messaging/richmenu/fail", json, (req, res) => {
    const body = z
      .object({ count: z.number().int().min(0).max(1000), status: z.number().int().min(400).max(599).default(500) })
      .safeParse(req.body);
    if (!body.success) return error(res, 400, "count (0–1000) and status (400–599)");
    failures = body.data;
    res.json(failures);
  });

  return { menus, links, calls, defaultMenu: () => defaultMenu };
}
