import { mediaImage } from "@platform/db/schema/media";
import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The public catalogue: showrooms (stores), materials and their categories.
 *
 * - Ids are URL slugs (`xinyi-flagship`, `calacatta-oro-slab`): the id a visitor sees is the key.
 * - Text a visitor reads is stored in both locales as `{ "zh-TW": …, en: … }` (jsonb), so adding a
 *   field never means two columns, and every row is complete in both languages.
 * - Opening hours: the regular week in `weekly_hours` (index 0 = Sunday, as Date#getDay and
 *   taipeiParts), exceptions for single dates (holidays, stock-taking) in `store_hours_exception`.
 *   Times are Taipei wall-clock "HH:MM"; a day may have several intervals (a lunch break).
 */
export type LocalizedText = { "zh-TW": string; en: string };

/** One opening interval, Taipei wall clock, "HH:MM" (close may be "24:00"). */
export type OpeningInterval = { open: string; close: string };
/** Seven entries, Sunday first; an empty list means closed that weekday. */
export type WeeklyHours = OpeningInterval[][];

export type CatalogImage = {
  /** Same-origin path of the image (generated SVG under /media). */
  src: string;
  alt: LocalizedText;
  width: number;
  height: number;
};

/** An uploaded image (ADR 028) shown as a store photo; its facts and alt texts are read from media_image. */
export type UploadedPhoto = { imageId: string };
/** A store photo: a generated demo picture, or an uploaded image. */
export type StorePhoto = CatalogImage | UploadedPhoto;

export function isUploadedPhoto(photo: StorePhoto): photo is UploadedPhoto {
  return "imageId" in photo;
}

/**
 * A specification row. Seeded rows name a known property by `key` (its label is in the message catalog);
 * rows written in the console carry their own `label` in both languages (which then wins over the key).
 */
export type MaterialSpec = { key: string; label?: LocalizedText; value: LocalizedText };

export const STORE_SERVICES = [
  "design-consultation",
  "measuring",
  "installation",
  "samples",
  "parking",
  "accessible",
  "kids-corner",
  "appointment",
] as const;
export type StoreService = (typeof STORE_SERVICES)[number];

export const store = pgTable(
  "store",
  {
    id: text("id").primaryKey(),
    name: jsonb("name").$type<LocalizedText>().notNull(),
    summary: jsonb("summary").$type<LocalizedText>().notNull(),
    /** City code (`taipei`, `new-taipei`, …): the list filter; its name is in the message catalog. */
    city: text("city").notNull(),
    district: jsonb("district").$type<LocalizedText>().notNull(),
    postalCode: text("postal_code").notNull(),
    /** Street address without city and district. */
    address: jsonb("address").$type<LocalizedText>().notNull(),
    /** National format as printed (`02-2345-0101`); the tel: link is derived from it. */
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    weeklyHours: jsonb("weekly_hours").$type<WeeklyHours>().notNull(),
    /** In order: the demo's generated pictures and uploaded images (`{ imageId }`, also in store_photo). */
    photos: jsonb("photos").$type<StorePhoto[]>().notNull().default(sql`'[]'::jsonb`),
    services: jsonb("services").$type<StoreService[]>().notNull().default(sql`'[]'::jsonb`),
    featured: boolean("featured").notNull().default(false),
    published: boolean("published").notNull().default(false),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("store_city_idx").on(t.city)],
);

/** A date whose hours differ from the regular week (Taipei calendar date). No intervals = closed. */
export const storeHoursException = pgTable(
  "store_hours_exception",
  {
    storeId: text("store_id")
      .notNull()
      .references(() => store.id, { onDelete: "cascade" }),
    date: date("date", { mode: "string" }).notNull(),
    intervals: jsonb("intervals").$type<OpeningInterval[]>().notNull().default(sql`'[]'::jsonb`),
    note: jsonb("note").$type<LocalizedText>(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.date] })],
);

/**
 * The uploaded images a published store shows (ADR 028's "in use"): written by a publish with the
 * store's photos, so an image a published store shows cannot be deleted (the key has no cascade). The
 * order is in `store.photos`; a draft's images are not listed here (deleting one drops it from the draft).
 */
export const storePhoto = pgTable(
  "store_photo",
  {
    storeId: text("store_id")
      .notNull()
      .references(() => store.id, { onDelete: "cascade" }),
    imageId: uuid("image_id")
      .notNull()
      .references(() => mediaImage.id),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.imageId] }), index("store_photo_image_idx").on(t.imageId)],
);

export const materialCategory = pgTable("material_category", {
  id: text("id").primaryKey(),
  name: jsonb("name").$type<LocalizedText>().notNull(),
  summary: jsonb("summary").$type<LocalizedText>().notNull(),
  image: jsonb("image").$type<CatalogImage>().notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
  published: boolean("published").notNull().default(true),
  /** Optimistic concurrency (ADR 033): every console save checks and increments it. */
  version: integer("version").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const material = pgTable(
  "material",
  {
    id: text("id").primaryKey(),
    categoryId: text("category_id")
      .notNull()
      .references(() => materialCategory.id),
    name: jsonb("name").$type<LocalizedText>().notNull(),
    series: jsonb("series").$type<LocalizedText>().notNull(),
    summary: jsonb("summary").$type<LocalizedText>().notNull(),
    /** e.g. ["60 × 120 cm", "120 × 120 cm"]: language-neutral. */
    sizes: jsonb("sizes").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    finish: jsonb("finish").$type<LocalizedText>().notNull(),
    colour: jsonb("colour").$type<LocalizedText>().notNull(),
    /** A swatch of the colour for chips and placeholders. */
    swatch: text("swatch").notNull(),
    origin: jsonb("origin").$type<LocalizedText>().notNull(),
    specs: jsonb("specs").$type<MaterialSpec[]>().notNull().default(sql`'[]'::jsonb`),
    care: jsonb("care").$type<LocalizedText>().notNull(),
    images: jsonb("images").$type<CatalogImage[]>().notNull().default(sql`'[]'::jsonb`),
    /**
     * Related materials chosen in the console (ids, in order). Empty: the detail page picks them (same
     * series first, then same category).
     */
    relatedIds: jsonb("related_ids").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    featured: boolean("featured").notNull().default(false),
    /** The status: false is a draft (or withdrawn), true is on the public site. */
    published: boolean("published").notNull().default(false),
    sortOrder: integer("sort_order").notNull().default(0),
    /** Optimistic concurrency (ADR 033): every console save checks and increments it. */
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("material_category_idx").on(t.categoryId),
    // The console list's default order and keyset (most recently changed first).
    index("material_updated_idx").on(t.updatedAt, t.id),
  ],
);

/** Which showroom displays which material (a sample a visitor can see and touch). */
export const materialStore = pgTable(
  "material_store",
  {
    materialId: text("material_id")
      .notNull()
      .references(() => material.id, { onDelete: "cascade" }),
    storeId: text("store_id")
      .notNull()
      .references(() => store.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.materialId, t.storeId] }), index("material_store_store_idx").on(t.storeId)],
);

/** A member's saved materials (deleted with the member). */
export const materialFavourite = pgTable(
  "material_favourite",
  {
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    materialId: text("material_id")
      .notNull()
      .references(() => material.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.materialId] }),
    // Campaign audiences "favourited a material of category X" (ADR 048): the members of a category's materials.
    index("material_favourite_material_idx").on(t.materialId, t.memberId),
  ],
);
