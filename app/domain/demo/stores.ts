import type { LocalizedText, OpeningInterval, StoreService, WeeklyHours } from "@platform/db/schema/catalog";
import { type FacadeStyle, facadeSeed } from "./pictures/architecture";
import { mediaPath } from "./pictures/textures";

/**
 * Demo showrooms: real cities, districts and postal codes; the street numbers, phone numbers and
 * e-mail addresses (on the reserved .example domain) are made up. Coordinates are near the district.
 */
const L = (zh: string, en: string): LocalizedText => ({ "zh-TW": zh, en });
const h = (open: string, close: string): OpeningInterval[] => [{ open, close }];

/** Sunday first. */
function week(
  weekday: OpeningInterval[],
  saturday: OpeningInterval[],
  sunday: OpeningInterval[],
  closedOn: number[] = [],
) {
  const days: WeeklyHours = [sunday, weekday, weekday, weekday, weekday, weekday, saturday];
  return days.map((d, i) => (closedOn.includes(i) ? [] : d));
}

export type SeedStore = {
  id: string;
  name: LocalizedText;
  summary: LocalizedText;
  city: string;
  district: LocalizedText;
  postalCode: string;
  address: LocalizedText;
  phone: string;
  email: string;
  latitude: number;
  longitude: number;
  weeklyHours: WeeklyHours;
  services: StoreService[];
  featured: boolean;
  published: boolean;
  palette: [string, string, string, string];
};

export const SEED_STORES: SeedStore[] = [
  {
    id: "xinyi-flagship",
    name: L("信義旗艦店", "Xinyi Flagship"),
    summary: L(
      "三層樓的材質圖書館：石材、磁磚與木地板的實品牆，設計顧問駐店，週末營業到晚上十點。",
      "A three-floor library of materials: full-size walls of stone, tile and wood, with design consultants in store and late hours at weekends.",
    ),
    city: "taipei",
    district: L("信義區", "Xinyi District"),
    postalCode: "110",
    address: L("松仁路 168 號 1–3 樓", "1F–3F, No. 168, Songren Rd."),
    phone: "02-2723-0101",
    email: "xinyi@hanliving.example",
    latitude: 25.0355,
    longitude: 121.5683,
    weeklyHours: week(h("10:30", "21:30"), h("10:00", "22:00"), h("10:00", "22:00")),
    services: ["design-consultation", "measuring", "installation", "samples", "parking", "accessible", "kids-corner"],
    featured: true,
    published: true,
    palette: ["ece5da", "a27150", "7d5236", "d8d2c8"],
  },
  {
    id: "neihu-design-center",
    name: L("內湖設計中心", "Neihu Design Centre"),
    summary: L(
      "為設計師與工班打造的專業據點，提供大量樣品借用與施工諮詢，平日一早就開門。",
      "A trade centre for designers and contractors: sample loans and installation advice, open early on weekdays.",
    ),
    city: "taipei",
    district: L("內湖區", "Neihu District"),
    postalCode: "114",
    address: L("瑞光路 388 號", "No. 388, Ruiguang Rd."),
    phone: "02-2659-0202",
    email: "neihu@hanliving.example",
    latitude: 25.0797,
    longitude: 121.5751,
    weeklyHours: week(h("10:00", "19:00"), h("10:00", "18:00"), h("10:00", "18:00")),
    services: ["design-consultation", "samples", "measuring", "appointment", "parking"],
    featured: false,
    published: true,
    palette: ["e4ddd2", "8d8479", "3b3732", "c9bfae"],
  },
  {
    id: "banqiao",
    name: L("板橋門市", "Banqiao Showroom"),
    summary: L(
      "鄰近新板特區，衛浴與廚房五金的完整展示，適合一次看齊整間浴室。",
      "Near the Xinban district: complete bathroom and kitchen hardware displays to plan a whole bathroom in one visit.",
    ),
    city: "new-taipei",
    district: L("板橋區", "Banqiao District"),
    postalCode: "220",
    address: L("縣民大道二段 66 號", "No. 66, Sec. 2, Xianmin Blvd."),
    phone: "02-2960-0303",
    email: "banqiao@hanliving.example",
    latitude: 25.0143,
    longitude: 121.4637,
    weeklyHours: week(h("10:30", "21:00"), h("10:30", "21:00"), h("10:30", "21:00")),
    services: ["samples", "installation", "accessible", "parking"],
    featured: false,
    published: true,
    palette: ["f1ece4", "c9b59c", "5e574e", "e9e4dc"],
  },
  {
    id: "taoyuan",
    name: L("桃園門市", "Taoyuan Showroom"),
    summary: L(
      "寬敞的木地板與塗料展示區，現場可試刷色卡，停車方便。",
      "Spacious wood-flooring and paint displays where you can try colours on a sample board, with easy parking.",
    ),
    city: "taoyuan",
    district: L("桃園區", "Taoyuan District"),
    postalCode: "330",
    address: L("中正路 1088 號", "No. 1088, Zhongzheng Rd."),
    phone: "03-339-0404",
    email: "taoyuan@hanliving.example",
    latitude: 24.9936,
    longitude: 121.301,
    weeklyHours: week(h("10:30", "21:00"), h("10:00", "21:00"), h("10:00", "20:00")),
    services: ["samples", "measuring", "parking", "kids-corner"],
    featured: false,
    published: true,
    palette: ["efe9df", "b08a63", "6b4a31", "d9cbb8"],
  },
  {
    id: "zhubei",
    name: L("竹北門市", "Zhubei Showroom"),
    summary: L(
      "新竹地區的預約制展間，一對一陪同挑選，平日上午十點營業。",
      "The Hsinchu area's appointment showroom: one-to-one guidance, open from 10 am on weekdays.",
    ),
    city: "hsinchu-county",
    district: L("竹北市", "Zhubei City"),
    postalCode: "302",
    address: L("光明六路 16 號", "No. 16, Guangming 6th Rd."),
    phone: "03-658-0505",
    email: "zhubei@hanliving.example",
    latitude: 24.827,
    longitude: 121.012,
    weeklyHours: week(h("10:00", "20:00"), h("10:00", "20:00"), h("10:00", "18:00")),
    services: ["appointment", "design-consultation", "samples", "parking"],
    featured: false,
    published: true,
    palette: ["e9e4dc", "9a948b", "43291a", "cdbfae"],
  },
  {
    id: "taichung-flagship",
    name: L("台中七期旗艦店", "Taichung Flagship"),
    summary: L(
      "中部最大的展示空間，整面石材大板牆與實景樣品屋，假日有親子空間。",
      "Central Taiwan's largest showroom, with a full wall of stone slabs, furnished sample rooms and a family corner at weekends.",
    ),
    city: "taichung",
    district: L("西屯區", "Xitun District"),
    postalCode: "407",
    address: L("市政北二路 238 號", "No. 238, Shizheng N. 2nd Rd."),
    phone: "04-2258-0606",
    email: "taichung@hanliving.example",
    latitude: 24.161,
    longitude: 120.64,
    weeklyHours: week(h("10:00", "21:30"), h("10:00", "21:30"), h("10:00", "21:00")),
    services: ["design-consultation", "measuring", "installation", "samples", "parking", "accessible", "kids-corner"],
    featured: true,
    published: true,
    palette: ["e8e2d8", "8f6a4c", "5f3d28", "d8d2c8"],
  },
  {
    id: "tainan",
    name: L("台南門市", "Tainan Showroom"),
    summary: L(
      "老屋翻新的好夥伴：復古花磚、水磨石與天然塗料的專區。",
      "A partner for old-house renovations: vintage patterned tiles, terrazzo and natural paints.",
    ),
    city: "tainan",
    district: L("東區", "East District"),
    postalCode: "701",
    address: L("中華東路三段 120 號", "No. 120, Sec. 3, Zhonghua E. Rd."),
    phone: "06-289-0707",
    email: "tainan@hanliving.example",
    latitude: 22.987,
    longitude: 120.227,
    weeklyHours: week(h("11:00", "20:30"), h("10:30", "21:00"), h("10:30", "20:00")),
    services: ["samples", "design-consultation", "accessible"],
    featured: false,
    published: true,
    palette: ["f2ebe0", "c46b4b", "2f5d62", "e8e2d8"],
  },
  {
    id: "kaohsiung-art-museum",
    name: L("高雄美術館門市", "Kaohsiung Art Museum Showroom"),
    summary: L(
      "面向美術館園區的挑高展間，南部唯一的完整衛浴實景，週末營業到晚上十點。",
      "A double-height showroom facing the museum park, the south's only full bathroom displays, open until 10 pm at weekends.",
    ),
    city: "kaohsiung",
    district: L("鼓山區", "Gushan District"),
    postalCode: "804",
    address: L("美術東二路 99 號", "No. 99, Meishu E. 2nd Rd."),
    phone: "07-555-0808",
    email: "kaohsiung@hanliving.example",
    latitude: 22.656,
    longitude: 120.287,
    weeklyHours: week(h("11:00", "21:30"), h("10:30", "22:00"), h("10:30", "22:00")),
    services: ["design-consultation", "measuring", "installation", "samples", "parking", "accessible"],
    featured: true,
    published: true,
    palette: ["eee8de", "b9a48f", "2f4858", "dcd5ca"],
  },
  {
    id: "luodong",
    name: L("羅東門市", "Luodong Showroom"),
    summary: L(
      "蘭陽平原的在地據點，防潮木地板與耐候塗料特別齊全，每週二公休。",
      "Our Lanyang Plain showroom, strong in moisture-resistant flooring and weatherproof paint; closed on Tuesdays.",
    ),
    city: "yilan",
    district: L("羅東鎮", "Luodong Township"),
    postalCode: "265",
    address: L("純精路二段 50 號", "No. 50, Sec. 2, Chunjing Rd."),
    phone: "03-956-0909",
    email: "luodong@hanliving.example",
    latitude: 24.677,
    longitude: 121.77,
    weeklyHours: week(h("10:00", "19:00"), h("10:00", "19:00"), h("10:00", "18:00"), [2]),
    services: ["samples", "measuring", "parking"],
    featured: false,
    published: true,
    palette: ["e7e1d6", "8c7a5b", "4a5a3c", "d5cdbf"],
  },
  {
    id: "hualien",
    name: L("花蓮門市", "Hualien Showroom"),
    summary: L(
      "東部唯一的漢生活展間，大理石的故鄉，提供在地石材選品，每週三公休。",
      "Our only showroom in the east, in the home of Taiwanese marble, with local stone; closed on Wednesdays.",
    ),
    city: "hualien",
    district: L("花蓮市", "Hualien City"),
    postalCode: "970",
    address: L("中山路 300 號", "No. 300, Zhongshan Rd."),
    phone: "03-833-1010",
    email: "hualien@hanliving.example",
    latitude: 23.977,
    longitude: 121.605,
    weeklyHours: week(h("10:30", "19:30"), h("10:30", "19:30"), h("10:30", "18:00"), [3]),
    services: ["samples", "accessible", "parking"],
    featured: false,
    published: true,
    palette: ["f0ede8", "9aa3a8", "3f4a52", "e4e1db"],
  },
  {
    // Not yet open: in the database but unpublished (its pages answer 404).
    id: "dadaocheng-concept",
    name: L("大稻埕概念店（籌備中）", "Dadaocheng Concept Store (coming soon)"),
    summary: L("即將開幕。", "Opening soon."),
    city: "taipei",
    district: L("大同區", "Datong District"),
    postalCode: "103",
    address: L("迪化街一段 200 號", "No. 200, Sec. 1, Dihua St."),
    phone: "02-2557-1111",
    email: "dadaocheng@hanliving.example",
    latitude: 25.0588,
    longitude: 121.5098,
    weeklyHours: week(h("11:00", "19:00"), h("11:00", "19:00"), h("11:00", "19:00")),
    services: [],
    featured: false,
    published: false,
    palette: ["efe6d8", "7d5236", "43291a", "d9cbb8"],
  },
];

/** Holidays and closures (Taipei dates). Every store keeps the national-holiday hours; some add their own. */
export type SeedException = { storeId: string | "*"; date: string; intervals: OpeningInterval[]; note: LocalizedText };

export const SEED_EXCEPTIONS: SeedException[] = [
  {
    storeId: "*",
    date: "2026-12-31",
    intervals: h("10:30", "18:00"),
    note: L("跨年夜提早打烊", "New Year's Eve: early closing"),
  },
  { storeId: "*", date: "2027-01-01", intervals: h("11:00", "18:00"), note: L("元旦營業時間", "New Year's Day hours") },
  {
    storeId: "*",
    date: "2027-02-05",
    intervals: h("10:00", "15:00"),
    note: L("除夕提早打烊", "Lunar New Year's Eve: early closing"),
  },
  { storeId: "*", date: "2027-02-06", intervals: [], note: L("春節公休", "Closed for Lunar New Year") },
  { storeId: "*", date: "2027-02-07", intervals: [], note: L("春節公休", "Closed for Lunar New Year") },
  { storeId: "*", date: "2027-02-08", intervals: h("11:00", "19:00"), note: L("春節營業時間", "Lunar New Year hours") },
  {
    storeId: "taichung-flagship",
    date: "2026-11-25",
    intervals: h("14:00", "21:30"),
    note: L("上午盤點，下午兩點開門", "Stock-taking: opens at 2 pm"),
  },
  { storeId: "banqiao", date: "2026-12-09", intervals: [], note: L("年度盤點公休", "Closed for annual stock-taking") },
];

/**
 * Each showroom's building (style, variant): no two stores share one, so the store cards never
 * repeat a picture. The styles echo the places (Xinyi's glass, Tainan's arcades, Dadaocheng's brick).
 */
export const STORE_FACADES: Record<string, [FacadeStyle, number]> = {
  "xinyi-flagship": ["curtain", 0],
  "neihu-design-center": ["louvres", 0],
  banqiao: ["curtain", 1],
  taoyuan: ["warehouse", 0],
  zhubei: ["gables", 1],
  "taichung-flagship": ["portal", 0],
  tainan: ["arcade", 0],
  "kaohsiung-art-museum": ["terraces", 0],
  luodong: ["louvres", 1],
  hualien: ["portal", 1],
  "dadaocheng-concept": ["arcade", 1],
};

/** The building from the street first (the store card's picture), then two views inside. */
export function storePhotos(s: SeedStore) {
  const [wall, floor, accent, sample] = s.palette;
  const [style, variant] = STORE_FACADES[s.id] ?? ["curtain", 0];
  const exterior = {
    src: mediaPath("facade", [wall, floor, accent, sample], facadeSeed(style, variant)),
    alt: L(`${s.name["zh-TW"]}建築外觀`, `${s.name.en}: the building from the street`),
    width: 800,
    height: 600,
  };
  const scenes = [
    {
      alt: L(`${s.name["zh-TW"]}樣品區與洽談座位`, `${s.name.en}: sample area and seating`),
      colours: [sample, accent, floor, wall],
    },
    {
      alt: L(`${s.name["zh-TW"]}自然光展示廳`, `${s.name.en}: daylight gallery`),
      colours: [wall, sample, floor, accent],
    },
  ];
  return [
    exterior,
    ...scenes.map((scene, i) => ({
      // The scene composition (seed % 3) differs per photo and per store.
      src: mediaPath("showroom", scene.colours, ((i + 1 + s.id.length) % 3) + 3 * (s.id.length % 5)),
      alt: scene.alt,
      width: 800,
      height: 600,
    })),
  ];
}
