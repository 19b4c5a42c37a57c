import type { LocalizedText, MaterialSpec } from "@platform/db/schema/catalog";
import type { TextureKind } from "./pictures/textures";

/** Demo materials: plausible products of a Taiwanese building-materials brand; the series names are made up. */
const L = (zh: string, en: string): LocalizedText => ({ "zh-TW": zh, en });
const same = (text: string): LocalizedText => ({ "zh-TW": text, en: text });
const spec = (key: string, value: LocalizedText | string): MaterialSpec => ({
  key,
  value: typeof value === "string" ? same(value) : value,
});

export type SeedCategory = {
  id: string;
  name: LocalizedText;
  summary: LocalizedText;
  texture: { kind: TextureKind; colours: string[]; seed: number };
};

export const SEED_CATEGORIES: SeedCategory[] = [
  {
    id: "tiles",
    name: L("磁磚", "Tiles"),
    summary: L("石英磚、拋光磚與復古花磚，地壁皆宜。", "Porcelain, polished and patterned tiles for floors and walls."),
    texture: { kind: "tile", colours: ["d8d2c8", "f4f1ec", "b9ada0"], seed: 11 },
  },
  {
    id: "stone",
    name: L("天然石材", "Natural stone"),
    summary: L("大理石、花崗石與洞石，每一片都獨一無二。", "Marble, granite and travertine: no two slabs alike."),
    texture: { kind: "marble", colours: ["eeeae4", "8f877c"], seed: 21 },
  },
  {
    id: "wood-flooring",
    name: L("木地板", "Wood flooring"),
    summary: L(
      "海島型、超耐磨與實木地板，適合台灣的濕度。",
      "Engineered, laminate and solid wood floors made for Taiwan's humidity.",
    ),
    texture: { kind: "wood", colours: ["b08a63", "6b4a31"], seed: 31 },
  },
  {
    id: "countertops",
    name: L("檯面", "Countertops"),
    summary: L(
      "石英石、岩板與水磨石，廚房與浴室的工作檯面。",
      "Quartz, sintered stone and terrazzo worktops for kitchens and bathrooms.",
    ),
    texture: { kind: "terrazzo", colours: ["e8e2d8", "a27150", "5e574e", "c9bfae"], seed: 41 },
  },
  {
    id: "paint",
    name: L("塗料", "Paint"),
    summary: L(
      "低 VOC 的室內乳膠漆、礦物塗料與特殊質感漆。",
      "Low-VOC interior emulsions, mineral paints and textured finishes.",
    ),
    texture: { kind: "paint", colours: ["c9b59c"], seed: 51 },
  },
  {
    id: "bathroom",
    name: L("衛浴", "Bathroom"),
    summary: L(
      "面盆、馬桶與龍頭，省水標章與好清潔的設計。",
      "Basins, toilets and taps: water-saving and easy to clean.",
    ),
    texture: { kind: "basin", colours: ["f7f5f1", "d8cfc2", "8d7a66"], seed: 60 },
  },
  {
    id: "hardware",
    name: L("五金", "Hardware"),
    summary: L(
      "門把、櫃體把手與滑軌，手每天會碰到的細節。",
      "Door handles, cabinet pulls and runners: the details your hands touch every day.",
    ),
    texture: { kind: "handle", colours: ["3b3732", "cdbfae", "8d7a66"], seed: 70 },
  },
];

export type SeedMaterial = {
  id: string;
  categoryId: string;
  name: LocalizedText;
  series: LocalizedText;
  summary: LocalizedText;
  sizes: string[];
  finish: LocalizedText;
  colour: LocalizedText;
  origin: LocalizedText;
  specs: MaterialSpec[];
  care: LocalizedText;
  texture: { kind: TextureKind; colours: string[] };
  /** The detail view (a second texture, e.g. a closer look or another layout). */
  detail?: { kind: TextureKind; colours: string[] };
  featured?: boolean;
  published?: boolean;
};

const ORIGIN = {
  tw: L("台灣", "Taiwan"),
  it: L("義大利", "Italy"),
  es: L("西班牙", "Spain"),
  tr: L("土耳其", "Turkey"),
  gr: L("希臘", "Greece"),
  jp: L("日本", "Japan"),
  de: L("德國", "Germany"),
  vn: L("越南", "Vietnam"),
  pt: L("葡萄牙", "Portugal"),
  us: L("美國", "United States"),
  se: L("瑞典", "Sweden"),
};

const CARE = {
  tile: L(
    "日常以中性清潔劑與拖把清潔即可；避免使用含酸、強鹼清潔劑，以免傷害填縫。",
    "Clean with a neutral detergent and a mop; avoid acidic or strongly alkaline cleaners, which harm the grout.",
  ),
  stone: L(
    "天然石材具毛細孔，建議每一至兩年做一次防護；醋、檸檬汁等酸性液體請立即擦拭。",
    "Natural stone is porous: reseal every one to two years, and wipe up vinegar, lemon juice and other acids at once.",
  ),
  wood: L(
    "以擰乾的拖把清潔，避免大量積水；家具腳墊毛氈墊，維持室內濕度 50–65%。",
    "Clean with a well-wrung mop and never leave standing water; put felt pads under furniture and keep indoor humidity at 50–65%.",
  ),
  counter: L(
    "熱鍋請使用隔熱墊；以中性清潔劑與軟布擦拭，勿用鋼刷。",
    "Use a trivet for hot pans; clean with a neutral detergent and a soft cloth, never a steel scourer.",
  ),
  paint: L(
    "完全乾燥（約七天）後可用濕布輕擦；補漆請使用同批號產品。",
    "Once fully cured (about seven days) wipe gently with a damp cloth; touch up with paint from the same batch.",
  ),
  bath: L(
    "以軟布與中性清潔劑清潔，避免菜瓜布與含氯漂白水；定期清除龍頭起波器水垢。",
    "Clean with a soft cloth and neutral detergent, never scouring pads or chlorine bleach; descale tap aerators regularly.",
  ),
  hardware: L(
    "以乾布擦拭即可，避免含酸清潔劑；鉸鏈與滑軌每年檢查一次螺絲。",
    "Wipe with a dry cloth and avoid acidic cleaners; check the screws of hinges and runners once a year.",
  ),
};

const tile = (
  id: string,
  name: LocalizedText,
  series: LocalizedText,
  summary: LocalizedText,
  sizes: string[],
  finish: LocalizedText,
  colour: LocalizedText,
  origin: LocalizedText,
  colours: string[],
  extra: Partial<SeedMaterial> & { slip?: string; absorption?: string; thickness?: string; kind?: TextureKind } = {},
): SeedMaterial => ({
  id,
  categoryId: "tiles",
  name,
  series,
  summary,
  sizes,
  finish,
  colour,
  origin,
  specs: [
    spec("thickness", extra.thickness ?? "9 mm"),
    spec("waterAbsorption", extra.absorption ?? "≤ 0.5%"),
    spec("slipResistance", extra.slip ?? "R10"),
    spec("use", L("室內地壁", "Indoor floors and walls")),
    spec("warranty", L("10 年", "10 years")),
  ],
  care: CARE.tile,
  texture: { kind: extra.kind ?? "tile", colours },
  detail: { kind: extra.kind === "subway" ? "tile" : "subway", colours },
  ...extra,
});

export const SEED_MATERIALS: SeedMaterial[] = [
  // Tiles
  tile(
    "kyoto-mist-porcelain",
    L("京霧 石英磚", "Kyoto Mist porcelain tile"),
    L("霧光系列", "Mist series"),
    L(
      "帶有細緻霧面質感的灰米色石英磚，大尺寸讓空間更完整。",
      "A soft matt greige porcelain tile; the large format keeps rooms calm and seamless.",
    ),
    ["60 × 120 cm", "120 × 120 cm"],
    L("霧面", "Matt"),
    L("灰米", "Greige"),
    ORIGIN.es,
    ["d8d2c8", "f4f1ec", "c9bfae"],
    { featured: true },
  ),
  tile(
    "seaside-white-subway",
    L("海岸白 地鐵磚", "Seaside White subway tile"),
    L("手工釉系列", "Hand-glazed series"),
    L("手工釉面的長條壁磚，光影在釉色上微微起伏。", "A hand-glazed wall brick whose glaze catches the light unevenly."),
    ["7.5 × 30 cm"],
    L("亮面手工釉", "Glossy hand glaze"),
    L("暖白", "Warm white"),
    ORIGIN.es,
    ["f3efe7", "dcd6cc", "e9e1d4"],
    { kind: "subway", slip: "—", thickness: "8 mm", absorption: "≤ 10%" },
  ),
  tile(
    "tainan-heritage-pattern",
    L("府城花磚", "Tainan Heritage patterned tile"),
    L("老屋新生系列", "Heritage series"),
    L(
      "以台南老屋花磚為靈感，赭紅與青綠交錯的復古圖樣。",
      "Inspired by the patterned tiles of Tainan's old houses: ochre red and teal in a vintage motif.",
    ),
    ["20 × 20 cm"],
    L("霧面", "Matt"),
    L("赭紅、青綠", "Ochre red, teal"),
    ORIGIN.tw,
    ["c46b4b", "f2ebe0", "2f5d62"],
    { featured: true },
  ),
  tile(
    "basalt-grey-outdoor",
    L("玄武灰 戶外止滑磚", "Basalt Grey outdoor tile"),
    L("戶外系列", "Outdoor series"),
    L(
      "2 公分厚的戶外磚，陽台與庭院的防滑首選。",
      "A 2 cm outdoor tile, the non-slip choice for balconies and gardens.",
    ),
    ["60 × 60 cm"],
    L("粗面止滑", "Textured anti-slip"),
    L("深灰", "Charcoal"),
    ORIGIN.it,
    ["5e5b57", "3f3c39", "6d6a65"],
    { thickness: "20 mm", slip: "R11" },
  ),
  tile(
    "calacatta-polished",
    L("卡拉拉 拋光石英磚", "Calacatta polished porcelain"),
    L("大板系列", "Grand slab series"),
    L(
      "仿卡拉拉大理石紋的拋光大板，沒有天然石材的保養負擔。",
      "A polished large slab with the veining of Calacatta marble and none of natural stone's upkeep.",
    ),
    ["80 × 160 cm", "120 × 240 cm"],
    L("拋光", "Polished"),
    L("白底金灰紋", "White with gold-grey veining"),
    ORIGIN.it,
    ["f2efea", "a39a8e", "c8b48e"],
    { kind: "marble", thickness: "11 mm", slip: "R9" },
  ),
  tile(
    "sage-zellige",
    L("鼠尾草 手工摩洛哥磚", "Sage zellige tile"),
    L("手工釉系列", "Hand-glazed series"),
    L(
      "厚薄不一的手工釉面小方磚，為廚房牆面帶來柔和綠意。",
      "Small hand-glazed squares of uneven thickness that bring a soft green to kitchen walls.",
    ),
    ["10 × 10 cm"],
    L("亮面手工釉", "Glossy hand glaze"),
    L("鼠尾草綠", "Sage green"),
    ORIGIN.es,
    ["9fae98", "e9ece4", "7f9079"],
    { thickness: "10 mm", absorption: "≤ 10%", slip: "—" },
  ),

  // Natural stone
  ...(
    [
      [
        "hualien-white-marble",
        L("花蓮白 大理石", "Hualien White marble"),
        L("台灣石系列", "Taiwan stone series"),
        L("產自花蓮的白色大理石，灰色細紋沉穩內斂。", "White marble from Hualien with quiet grey veining."),
        ["60 × 60 cm", "320 × 160 cm"],
        L("霧面研磨", "Honed"),
        L("白、灰紋", "White, grey veining"),
        ORIGIN.tw,
        ["eeeae4", "8f877c"],
        "marble",
        true,
      ],
      [
        "nero-marquina",
        L("黑金花 大理石", "Nero Marquina marble"),
        L("經典石系列", "Classic stone series"),
        L(
          "深黑底色與白色閃電紋，適合主牆與檯面。",
          "Deep black with white lightning veins, for feature walls and worktops.",
        ),
        ["60 × 120 cm", "320 × 160 cm"],
        L("拋光", "Polished"),
        L("黑、白紋", "Black, white veining"),
        { "zh-TW": "西班牙", en: "Spain" },
        ["24221f", "d8d4cc"],
        "marble",
        false,
      ],
      [
        "roman-travertine",
        L("羅馬洞石", "Roman travertine"),
        L("經典石系列", "Classic stone series"),
        L("帶有天然孔洞的米黃洞石，溫暖而有歷史感。", "Creamy travertine with natural pores: warm and timeless."),
        ["40 × 80 cm", "60 × 60 cm"],
        L("填孔霧面", "Filled and honed"),
        L("米黃", "Cream"),
        ORIGIN.it,
        ["dccbb0", "b39d7c"],
        "stone",
        false,
      ],
      [
        "volakas-white",
        L("雅典白 大理石", "Volakas White marble"),
        L("經典石系列", "Classic stone series"),
        L("希臘白色大理石，淡灰紋理柔和清透。", "Greek white marble with soft pale-grey veining."),
        ["60 × 120 cm"],
        L("拋光", "Polished"),
        L("白", "White"),
        ORIGIN.gr,
        ["f1efeb", "b7b2aa"],
        "marble",
        false,
      ],
      [
        "absolute-black-granite",
        L("蒙古黑 花崗石", "Absolute Black granite"),
        L("耐用石系列", "Hard-wearing stone series"),
        L(
          "緻密耐磨的黑色花崗石，適合入口與戶外階梯。",
          "A dense, hard-wearing black granite for entrances and outdoor steps.",
        ),
        ["60 × 60 cm", "30 × 60 cm"],
        L("燒面", "Flamed"),
        L("黑", "Black"),
        L("中國", "China"),
        ["34322f", "5a5752"],
        "stone",
        false,
      ],
      [
        "silver-grey-slate",
        L("銀灰 板岩", "Silver Grey slate"),
        L("耐用石系列", "Hard-wearing stone series"),
        L(
          "自然劈面的板岩，層次豐富，適合庭園與浴室牆面。",
          "Cleft slate with rich layers, for gardens and bathroom walls.",
        ),
        ["30 × 60 cm"],
        L("自然劈面", "Natural cleft"),
        L("銀灰", "Silver grey"),
        L("印度", "India"),
        ["7d8083", "5b5e61"],
        "stone",
        false,
      ],
    ] as const
  ).map(
    ([id, name, series, summary, sizes, finish, colour, origin, colours, kind, featured]): SeedMaterial => ({
      id,
      categoryId: "stone",
      name,
      series,
      summary,
      sizes: [...sizes],
      finish,
      colour,
      origin,
      specs: [
        spec("thickness", "20 mm"),
        spec("hardness", kind === "marble" ? L("莫氏 3–4", "Mohs 3–4") : L("莫氏 6–7", "Mohs 6–7")),
        spec("waterAbsorption", kind === "marble" ? "0.2%" : "0.4%"),
        spec("use", L("地壁、檯面", "Floors, walls, worktops")),
        spec("sealing", L("建議施作防護", "Sealing recommended")),
      ],
      care: CARE.stone,
      texture: { kind, colours: [...colours] },
      detail: { kind: "stone", colours: [...colours] },
      featured,
    }),
  ),

  // Wood flooring
  ...(
    [
      [
        "alishan-oak-engineered",
        L("阿里山橡木 海島型地板", "Alishan Oak engineered floor"),
        L("森語系列", "Forest series"),
        L(
          "3 mm 橡木表板的海島型地板，尺寸穩定，適合台灣氣候。",
          "Engineered oak with a 3 mm top layer: stable in Taiwan's climate.",
        ),
        ["19 × 190 cm"],
        L("天然木蠟油", "Natural hardwax oil"),
        L("自然橡木", "Natural oak"),
        ORIGIN.de,
        ["b08a63", "6b4a31"],
        true,
        "15 mm",
      ],
      [
        "smoked-walnut-engineered",
        L("煙燻胡桃 海島型地板", "Smoked Walnut engineered floor"),
        L("森語系列", "Forest series"),
        L(
          "深色胡桃木紋，沉穩溫潤，適合書房與臥室。",
          "Deep walnut grain, warm and grounded, for studies and bedrooms.",
        ),
        ["19 × 190 cm"],
        L("半光 UV 塗裝", "Satin UV lacquer"),
        L("深胡桃", "Dark walnut"),
        ORIGIN.us,
        ["6e4a33", "3d281b"],
        false,
        "15 mm",
      ],
      [
        "nordic-ash-laminate",
        L("北歐白梣 超耐磨地板", "Nordic Ash laminate floor"),
        L("日常系列", "Everyday series"),
        L(
          "AC4 耐磨等級的淺色木紋，防刮好照顧，有寵物的家也適用。",
          "A pale AC4-rated laminate: scratch-resistant and easy with pets.",
        ),
        ["19.5 × 138 cm"],
        L("浮雕木紋", "Embossed grain"),
        L("淺白梣", "Pale ash"),
        ORIGIN.se,
        ["d9c7aa", "a38b66"],
        false,
        "8 mm",
      ],
      [
        "teak-herringbone",
        L("柚木 人字拼地板", "Teak herringbone floor"),
        L("工藝系列", "Craft series"),
        L(
          "經典人字拼法的柚木實木地板，油脂含量高，天然耐潮。",
          "Solid teak in a classic herringbone; its natural oils resist moisture.",
        ),
        ["12 × 60 cm"],
        L("天然木蠟油", "Natural hardwax oil"),
        L("金褐", "Golden brown"),
        L("緬甸", "Myanmar"),
        ["a87543", "6d4624"],
        true,
        "15 mm",
      ],
      [
        "maple-spc",
        L("楓木 SPC 石塑地板", "Maple SPC floor"),
        L("日常系列", "Everyday series"),
        L(
          "百分百防水的石塑地板，浴室外、廚房也能安心使用。",
          "A fully waterproof stone-plastic floor, safe by the kitchen and outside the bathroom.",
        ),
        ["18 × 122 cm"],
        L("霧面", "Matt"),
        L("淺楓木", "Light maple"),
        ORIGIN.vn,
        ["cdb38e", "9c8160"],
        false,
        "5 mm",
      ],
      [
        "cypress-solid",
        L("台灣扁柏 實木地板", "Taiwan Cypress solid floor"),
        L("工藝系列", "Craft series"),
        L(
          "帶有淡淡檜木香氣的扁柏實木地板，取自合法疏伐林。",
          "Solid Taiwan cypress with a gentle scent, from certified thinning.",
        ),
        ["12 × 90 cm"],
        L("天然植物油", "Natural plant oil"),
        L("淡黃", "Pale gold"),
        ORIGIN.tw,
        ["d6b98c", "a88a5c"],
        false,
        "18 mm",
      ],
    ] as const
  ).map(
    ([id, name, series, summary, sizes, finish, colour, origin, colours, featured, thickness]): SeedMaterial => ({
      id,
      categoryId: "wood-flooring",
      name,
      series,
      summary,
      sizes: [...sizes],
      finish,
      colour,
      origin,
      specs: [
        spec("thickness", thickness),
        spec("formaldehyde", L("F1 / F☆☆☆☆", "F1 / F☆☆☆☆")),
        spec("installation", L("平舖或膠合", "Floating or glued")),
        spec("use", L("室內地面", "Indoor floors")),
        spec("warranty", L("15 年", "15 years")),
      ],
      care: CARE.wood,
      texture: { kind: "wood", colours: [...colours] },
      detail: { kind: "wood", colours: [colours[1], colours[0]] },
      featured,
    }),
  ),

  // Countertops
  ...(
    [
      [
        "cloud-white-quartz",
        L("雲白 石英石", "Cloud White quartz"),
        L("料理台系列", "Kitchen series"),
        L(
          "93% 天然石英，耐刮耐污，純淨白色適合各種廚房。",
          "93% natural quartz, scratch- and stain-resistant, a pure white for any kitchen.",
        ),
        L("拋光", "Polished"),
        L("純白", "Pure white"),
        ORIGIN.tw,
        "stone",
        ["f3f1ed", "d9d5cf"],
        true,
      ],
      [
        "concrete-grey-sintered",
        L("清水灰 岩板", "Concrete Grey sintered stone"),
        L("岩板系列", "Sintered series"),
        L(
          "高溫燒結的岩板，耐熱耐刮，清水模般的質感。",
          "Kiln-fired sintered stone: heat- and scratch-proof, with the look of fair-faced concrete.",
        ),
        L("霧面", "Matt"),
        L("水泥灰", "Concrete grey"),
        ORIGIN.it,
        "stone",
        ["a29d96", "6f6b65"],
        false,
      ],
      [
        "terrazzo-classic",
        L("經典水磨石 檯面", "Classic terrazzo worktop"),
        L("水磨石系列", "Terrazzo series"),
        L(
          "米白底色嵌入赭色與灰色石粒，台灣老屋的經典記憶。",
          "A cream base set with ochre and grey chips: a classic of Taiwanese homes.",
        ),
        L("研磨霧面", "Honed"),
        L("米白多彩", "Cream multicolour"),
        ORIGIN.tw,
        "terrazzo",
        ["e8e2d8", "a27150", "5e574e", "c9bfae"],
        true,
      ],
      [
        "calacatta-sintered",
        L("金脈 岩板", "Golden Vein sintered stone"),
        L("岩板系列", "Sintered series"),
        L(
          "白底金色紋理的岩板，中島檯面的亮點。",
          "White sintered stone with golden veins, the highlight of a kitchen island.",
        ),
        L("拋光", "Polished"),
        L("白、金紋", "White, gold veining"),
        L("西班牙", "Spain"),
        "marble",
        ["f4f1ec", "b89c6e"],
        false,
      ],
      [
        "terrazzo-forest",
        L("森林綠 水磨石", "Forest Green terrazzo"),
        L("水磨石系列", "Terrazzo series"),
        L(
          "深綠底色配白色大理石顆粒，浴室檯面的大膽選擇。",
          "Deep green with white marble chips, a bold choice for a vanity top.",
        ),
        L("研磨霧面", "Honed"),
        L("深綠", "Forest green"),
        ORIGIN.tw,
        "terrazzo",
        ["3f5a4c", "eeeae4", "8fa394", "24352d"],
        false,
      ],
      [
        "black-quartz-sparkle",
        L("星空黑 石英石", "Starry Black quartz"),
        L("料理台系列", "Kitchen series"),
        L("黑色石英石點綴細微亮點，耐用且有個性。", "Black quartz with a fine sparkle: durable and distinctive."),
        L("拋光", "Polished"),
        L("黑", "Black"),
        ORIGIN.tw,
        "stone",
        ["2b2a28", "8a8680"],
        false,
      ],
    ] as const
  ).map(
    ([id, name, series, summary, finish, colour, origin, kind, colours, featured]): SeedMaterial => ({
      id,
      categoryId: "countertops",
      name,
      series,
      summary,
      sizes: ["305 × 140 cm", "320 × 160 cm"],
      finish,
      colour,
      origin,
      specs: [
        spec("thickness", "12 / 20 mm"),
        spec(
          "heatResistance",
          kind === "terrazzo" ? L("建議使用隔熱墊", "Use a trivet") : L("可耐 200°C", "Up to 200 °C"),
        ),
        spec("waterAbsorption", "≤ 0.05%"),
        spec("use", L("廚房、浴室檯面", "Kitchen and bathroom worktops")),
        spec("warranty", L("10 年", "10 years")),
      ],
      care: CARE.counter,
      texture: { kind, colours: [...colours] },
      detail: { kind: kind === "terrazzo" ? "terrazzo" : "stone", colours: [...colours] },
      featured,
    }),
  ),

  // Paint
  ...(
    [
      [
        "morning-linen",
        L("晨光亞麻 乳膠漆", "Morning Linen emulsion"),
        L("居家系列", "Home series"),
        L("柔和的亞麻米白，讓光線在牆面上更溫暖。", "A soft linen off-white that warms the light on your walls."),
        L("平光", "Flat"),
        L("亞麻米白", "Linen white"),
        "e6dccb",
        true,
      ],
      [
        "tea-field-green",
        L("茶園綠 乳膠漆", "Tea Field green emulsion"),
        L("居家系列", "Home series"),
        L(
          "取自坪林茶園的淺綠，適合臥室與書房。",
          "A pale green from the tea fields of Pinglin, for bedrooms and studies.",
        ),
        L("蛋殼光", "Eggshell"),
        L("淺茶綠", "Pale tea green"),
        "a9b59a",
        false,
      ],
      [
        "clay-lime-plaster",
        L("陶土 礦物石灰漆", "Clay mineral lime paint"),
        L("礦物系列", "Mineral series"),
        L(
          "天然石灰塗料，可調節濕度，刷出手作的雲紋質感。",
          "A natural lime paint that breathes and leaves a hand-made clouded finish.",
        ),
        L("礦物霧面", "Mineral matt"),
        L("陶土紅", "Clay red"),
        "b9785c",
        false,
      ],
      [
        "harbour-blue",
        L("港灣藍 乳膠漆", "Harbour Blue emulsion"),
        L("居家系列", "Home series"),
        L("沉靜的灰藍色，一面主牆就能定調空間。", "A calm grey-blue: one feature wall sets the tone of a room."),
        L("蛋殼光", "Eggshell"),
        L("灰藍", "Grey blue"),
        "5d7283",
        false,
      ],
      [
        "warm-grey-microcement",
        L("暖灰 微水泥", "Warm Grey microcement"),
        L("質感系列", "Texture series"),
        L(
          "無接縫的微水泥塗層，可施作於地面、牆面與浴室。",
          "A seamless microcement coating for floors, walls and bathrooms.",
        ),
        L("霧面", "Matt"),
        L("暖灰", "Warm grey"),
        "a49c92",
        true,
      ],
      [
        "weatherproof-white",
        L("耐候白 外牆漆", "Weatherproof White exterior paint"),
        L("外牆系列", "Exterior series"),
        L(
          "抗紫外線與防霉配方，適合多雨的東北部外牆。",
          "UV- and mould-resistant, for exterior walls in the rainy north-east.",
        ),
        L("半光", "Satin"),
        L("白", "White"),
        "f1efe9",
        false,
      ],
    ] as const
  ).map(
    ([id, name, series, summary, finish, colour, hex, featured]): SeedMaterial => ({
      id,
      categoryId: "paint",
      name,
      series,
      summary,
      sizes: ["1 L", "5 L", "18 L"],
      finish,
      colour,
      origin: ORIGIN.tw,
      specs: [
        spec("coverage", L("每公升約 10–12 ㎡（單層）", "About 10–12 m² per litre (one coat)")),
        spec("voc", L("< 1 g/L（綠建材標章）", "< 1 g/L (green building label)")),
        spec("dryingTime", L("表乾 1 小時，重塗 4 小時", "Touch-dry 1 h, recoat 4 h")),
        spec("coats", L("建議兩道", "Two coats recommended")),
        spec("use", id === "weatherproof-white" ? L("外牆", "Exterior walls") : L("室內牆面", "Interior walls")),
      ],
      care: CARE.paint,
      texture: { kind: "paint", colours: [hex] },
      detail: { kind: "stone", colours: [hex, hex] },
      featured,
    }),
  ),

  // Bathroom
  ...(
    [
      [
        "vessel-basin-round",
        L("圓韻 檯上盆", "Round vessel basin"),
        L("圓韻系列", "Round series"),
        L("薄邊圓形檯上盆，細緻陶瓷釉面好清潔。", "A thin-rimmed round vessel basin with an easy-clean glaze."),
        ["Ø 42 cm"],
        L("亮面陶瓷", "Glossy ceramic"),
        L("白", "White"),
        "basin",
        ["f7f5f1", "d8cfc2", "8d7a66"],
        true,
        "basin",
      ],
      [
        "vessel-basin-matte-black",
        L("墨色 檯上盆", "Ink vessel basin"),
        L("圓韻系列", "Round series"),
        L(
          "霧黑釉面的橢圓檯上盆，讓浴室更有性格。",
          "An oval vessel basin in matt black glaze, for a bathroom with character.",
        ),
        ["50 × 36 cm"],
        L("霧面陶瓷", "Matt ceramic"),
        L("霧黑", "Matt black"),
        "basin",
        ["3a3835", "e4ddd2", "b9a48f"],
        false,
        "basin",
      ],
      [
        "wall-hung-toilet",
        L("靜謐 壁掛馬桶", "Quiet wall-hung toilet"),
        L("靜謐系列", "Quiet series"),
        L(
          "無邊框沖水設計與緩降蓋板，二段式省水。",
          "Rimless flushing, a soft-close seat and a dual flush that saves water.",
        ),
        ["52 × 36 cm"],
        L("亮面陶瓷", "Glossy ceramic"),
        L("白", "White"),
        "basin",
        ["f5f3ef", "cfd5d6", "6f7a7d"],
        false,
        "toilet",
      ],
      [
        "brushed-brass-basin-tap",
        L("拉絲金 面盆龍頭", "Brushed brass basin tap"),
        L("線條系列", "Line series"),
        L("拉絲黃銅色的細長龍頭，搭配檯上盆剛剛好。", "A slender tap in brushed brass, made for vessel basins."),
        ["H 28 cm"],
        L("拉絲 PVD", "Brushed PVD"),
        L("拉絲金", "Brushed brass"),
        "faucet",
        ["c8a86e", "e4ddd2", "3b3732"],
        true,
        "tap",
      ],
      [
        "matte-black-shower",
        L("霧黑 淋浴柱", "Matt black shower column"),
        L("線條系列", "Line series"),
        L("恆溫控制的淋浴柱，30 公分頂噴帶來雨淋般的水流。", "A thermostatic shower column with a 30 cm rain head."),
        ["Ø 30 cm"],
        L("霧面粉體塗裝", "Matt powder coat"),
        L("霧黑", "Matt black"),
        "faucet",
        ["2f2d2b", "d8d2c8", "8d8479"],
        false,
        "tap",
      ],
      [
        "chrome-kitchen-tap",
        L("鏡光 廚房伸縮龍頭", "Chrome pull-out kitchen tap"),
        L("料理系列", "Kitchen series"),
        L(
          "可抽拉的兩段出水廚房龍頭，清洗大鍋也方便。",
          "A pull-out kitchen tap with two spray modes, handy for big pots.",
        ),
        ["H 24 cm"],
        L("鏡面電鍍", "Polished chrome"),
        L("鉻銀", "Chrome"),
        "faucet",
        ["c9ccce", "e9e4dc", "5e574e"],
        false,
        "tap",
      ],
    ] as const
  ).map(
    ([id, name, series, summary, sizes, finish, colour, kind, colours, featured, type]): SeedMaterial => ({
      id,
      categoryId: "bathroom",
      name,
      series,
      summary,
      sizes: [...sizes],
      finish,
      colour,
      origin: type === "tap" ? ORIGIN.de : ORIGIN.jp,
      specs:
        type === "tap"
          ? [
              spec("body", L("無鉛黃銅", "Lead-free brass")),
              spec("cartridge", L("35 mm 陶瓷閥芯", "35 mm ceramic cartridge")),
              spec("flowRate", L("每分鐘 6 公升（省水標章）", "6 L/min (water-saving label)")),
              spec("warranty", L("5 年", "5 years")),
            ]
          : type === "toilet"
            ? [
                spec("body", L("高溫陶瓷", "Vitreous china")),
                spec("flushVolume", L("3 / 4.5 公升", "3 / 4.5 L")),
                spec("flowRate", L("省水標章", "Water-saving label")),
                spec("warranty", L("10 年", "10 years")),
              ]
            : [
                spec("body", L("高溫陶瓷", "Vitreous china")),
                spec("overflow", L("無溢水孔", "No overflow")),
                spec("glaze", L("奈米抗污釉", "Nano easy-clean glaze")),
                spec("warranty", L("10 年", "10 years")),
              ],
      care: CARE.bath,
      texture: { kind, colours: [...colours] },
      detail: { kind: "metal", colours: [colours[0], colours[2]] },
      featured,
    }),
  ),

  // Hardware
  ...(
    [
      [
        "walnut-brass-pull",
        L("胡桃黃銅 櫃體把手", "Walnut & brass cabinet pull"),
        L("手感系列", "Touch series"),
        L("胡桃木與黃銅的長把手，讓櫃門也有溫度。", "A long pull of walnut and brass that warms a cabinet door."),
        ["16 / 32 cm"],
        L("拉絲黃銅", "Brushed brass"),
        L("胡桃、黃銅", "Walnut, brass"),
        "handle",
        ["b08d57", "cdbfae", "6e4a33"],
        true,
      ],
      [
        "matte-black-lever",
        L("霧黑 門把手", "Matt black door lever"),
        L("線條系列", "Line series"),
        L("極簡方形截面的門把手，手感紮實。", "A minimal square-section door lever with a solid feel."),
        ["14 cm"],
        L("霧面粉體塗裝", "Matt powder coat"),
        L("霧黑", "Matt black"),
        "handle",
        ["2f2d2b", "e4ddd2", "8d7a66"],
        false,
      ],
      [
        "satin-nickel-knob",
        L("緞面鎳 圓形把手", "Satin nickel knob"),
        L("線條系列", "Line series"),
        L("小巧圓形把手，抽屜與小門皆適用。", "A small round knob for drawers and small doors."),
        ["Ø 3 cm"],
        L("緞面鎳", "Satin nickel"),
        L("鎳銀", "Nickel"),
        "metal",
        ["b9b4ac", "6f6a63"],
        false,
      ],
      [
        "soft-close-runner",
        L("緩衝 隱藏式滑軌", "Soft-close concealed runner"),
        L("機能系列", "Function series"),
        L(
          "全展開隱藏式滑軌，關抽屜時輕柔無聲。",
          "Full-extension concealed runners that close drawers softly and silently.",
        ),
        ["45 / 50 / 55 cm"],
        L("鍍鋅鋼", "Zinc-plated steel"),
        L("銀", "Silver"),
        "metal",
        ["c9ccce", "7d8083"],
        false,
      ],
      [
        "oak-edge-pull",
        L("橡木 隱藏式把手", "Oak edge pull"),
        L("手感系列", "Touch series"),
        L("嵌入櫃門上緣的橡木把手，幾乎看不見。", "An oak pull set into the top edge of the door, almost invisible."),
        ["20 cm"],
        L("天然木蠟油", "Natural hardwax oil"),
        L("橡木", "Oak"),
        "handle",
        ["b08a63", "efe9df", "8d7a66"],
        false,
      ],
      [
        "smart-digital-lock",
        L("指紋電子鎖", "Fingerprint smart lock"),
        L("安心系列", "Secure series"),
        L(
          "指紋、密碼與感應卡三種開門方式，斷電時可用備用鑰匙。",
          "Opens by fingerprint, code or card, with a back-up key for power cuts.",
        ),
        ["7 × 36 cm"],
        L("霧面鋁合金", "Matt aluminium"),
        L("石墨灰", "Graphite"),
        "handle",
        ["4a4a4a", "d8d2c8", "8d8479"],
        false,
      ],
    ] as const
  ).map(
    ([id, name, series, summary, sizes, finish, colour, kind, colours, featured]): SeedMaterial => ({
      id,
      categoryId: "hardware",
      name,
      series,
      summary,
      sizes: [...sizes],
      finish,
      colour,
      origin: id === "soft-close-runner" ? ORIGIN.de : ORIGIN.tw,
      specs: [
        spec(
          "body",
          id.includes("oak") || id.includes("walnut")
            ? L("實木、黃銅", "Solid wood, brass")
            : L("鋅合金", "Zinc alloy"),
        ),
        spec("cycles", L("開關測試 10 萬次", "Tested to 100,000 cycles")),
        spec("loadRating", id === "soft-close-runner" ? L("承重 40 kg", "40 kg load") : L("—", "—")),
        spec("warranty", L("5 年", "5 years")),
      ],
      care: CARE.hardware,
      texture: { kind, colours: [...colours] },
      detail: { kind: "metal", colours: [colours[0], colours[colours.length - 1] ?? colours[0]] },
      featured,
    }),
  ),
  // In the database but withdrawn: its page answers 404.
  {
    id: "discontinued-glass-mosaic",
    categoryId: "tiles",
    name: L("琉璃 玻璃馬賽克（已停售）", "Glass mosaic (discontinued)"),
    series: L("舊款", "Discontinued"),
    summary: L("已停售。", "Discontinued."),
    sizes: ["30 × 30 cm"],
    finish: L("亮面", "Glossy"),
    colour: L("藍", "Blue"),
    origin: ORIGIN.tw,
    specs: [],
    care: CARE.tile,
    texture: { kind: "tile", colours: ["5d7283", "e9e4dc"] },
    published: false,
  },
];
