/**
 * The place taxonomy (docs/data.md#place-categories): which OpenStreetMap objects are places, and
 * their categories, chain and group. A place is a named object with one of the tags below; its
 * categories are the specific slug first, then its family. The table is the documentation: the
 * docs list it as it is here.
 */

export type Tags = Record<string, string>;

/** Families: the second category of every place. */
export const FAMILIES = [
  "food-beverage",
  "shopping-retail",
  "financial-service",
  "medical-health",
  "travel-transportation",
  "hotel-lodging",
  "arts-entertainment",
  "education",
  "sports-recreation",
  "public-service",
  "religion",
] as const;
type Family = (typeof FAMILIES)[number];

/** OSM key → value → [specific slug, family]. */
export const CATEGORIES: Record<string, Record<string, [string, Family]>> = {
  amenity: {
    restaurant: ["restaurant", "food-beverage"],
    cafe: ["coffee-shop", "food-beverage"],
    fast_food: ["fast-food-restaurant", "food-beverage"],
    bar: ["bar", "food-beverage"],
    pub: ["pub", "food-beverage"],
    biergarten: ["beer-garden", "food-beverage"],
    ice_cream: ["ice-cream-shop", "food-beverage"],
    food_court: ["food-court", "food-beverage"],
    pharmacy: ["pharmacy", "medical-health"],
    hospital: ["hospital", "medical-health"],
    clinic: ["medical-clinic", "medical-health"],
    doctors: ["doctor", "medical-health"],
    dentist: ["dentist", "medical-health"],
    veterinary: ["veterinarian", "medical-health"],
    bank: ["bank", "financial-service"],
    atm: ["atm", "financial-service"],
    bureau_de_change: ["currency-exchange", "financial-service"],
    fuel: ["gas-station", "travel-transportation"],
    charging_station: ["ev-charging-station", "travel-transportation"],
    parking: ["parking", "travel-transportation"],
    car_rental: ["car-rental", "travel-transportation"],
    bicycle_rental: ["bike-rental", "travel-transportation"],
    taxi: ["taxi-stand", "travel-transportation"],
    bus_station: ["bus-station", "travel-transportation"],
    ferry_terminal: ["ferry-terminal", "travel-transportation"],
    cinema: ["movie-theater", "arts-entertainment"],
    theatre: ["theater", "arts-entertainment"],
    nightclub: ["night-club", "arts-entertainment"],
    casino: ["casino", "arts-entertainment"],
    arts_centre: ["arts-center", "arts-entertainment"],
    school: ["school", "education"],
    university: ["university", "education"],
    college: ["college", "education"],
    kindergarten: ["preschool", "education"],
    library: ["library", "education"],
    townhall: ["city-hall", "public-service"],
    police: ["police-station", "public-service"],
    fire_station: ["fire-station", "public-service"],
    post_office: ["post-office", "public-service"],
    courthouse: ["courthouse", "public-service"],
    embassy: ["embassy", "public-service"],
    community_centre: ["community-center", "public-service"],
    place_of_worship: ["place-of-worship", "religion"],
  },
  shop: {
    supermarket: ["supermarket", "shopping-retail"],
    convenience: ["convenience-store", "shopping-retail"],
    bakery: ["bakery", "food-beverage"],
    butcher: ["butcher", "food-beverage"],
    alcohol: ["liquor-store", "shopping-retail"],
    clothes: ["clothing-store", "shopping-retail"],
    shoes: ["shoe-store", "shopping-retail"],
    mall: ["shopping-mall", "shopping-retail"],
    department_store: ["department-store", "shopping-retail"],
    hardware: ["hardware-store", "shopping-retail"],
    doityourself: ["hardware-store", "shopping-retail"],
    electronics: ["electronics-store", "shopping-retail"],
    mobile_phone: ["mobile-phone-store", "shopping-retail"],
    books: ["bookstore", "shopping-retail"],
    furniture: ["furniture-store", "shopping-retail"],
    jewelry: ["jewelry-store", "shopping-retail"],
    sports: ["sporting-goods-store", "shopping-retail"],
    bicycle: ["bicycle-store", "shopping-retail"],
    chemist: ["drugstore", "shopping-retail"],
    florist: ["florist", "shopping-retail"],
    gift: ["gift-shop", "shopping-retail"],
    kiosk: ["newsstand", "shopping-retail"],
    optician: ["optician", "medical-health"],
    hairdresser: ["hair-salon", "shopping-retail"],
    beauty: ["beauty-salon", "shopping-retail"],
    car: ["car-dealership", "shopping-retail"],
    car_repair: ["auto-repair", "travel-transportation"],
  },
  tourism: {
    hotel: ["hotel", "hotel-lodging"],
    motel: ["motel", "hotel-lodging"],
    hostel: ["hostel", "hotel-lodging"],
    guest_house: ["guest-house", "hotel-lodging"],
    apartment: ["vacation-rental", "hotel-lodging"],
    camp_site: ["campground", "hotel-lodging"],
    museum: ["museum", "arts-entertainment"],
    gallery: ["art-gallery", "arts-entertainment"],
    attraction: ["tourist-attraction", "arts-entertainment"],
    zoo: ["zoo", "arts-entertainment"],
    theme_park: ["amusement-park", "arts-entertainment"],
    viewpoint: ["viewpoint", "arts-entertainment"],
  },
  leisure: {
    park: ["park", "sports-recreation"],
    playground: ["playground", "sports-recreation"],
    sports_centre: ["sports-center", "sports-recreation"],
    fitness_centre: ["gym", "sports-recreation"],
    stadium: ["stadium", "sports-recreation"],
    swimming_pool: ["swimming-pool", "sports-recreation"],
    golf_course: ["golf-course", "sports-recreation"],
    pitch: ["sports-field", "sports-recreation"],
    marina: ["marina", "sports-recreation"],
  },
  railway: { station: ["train-station", "travel-transportation"] },
  aeroway: { aerodrome: ["airport", "travel-transportation"] },
};

/** A shop whose kind is not in the table is still a store. */
const OTHER_SHOP: [string, Family] = ["store", "shopping-retail"];

/**
 * Groups: places that are destinations made of many other places, for `groups=` in place search.
 */
export const GROUPS: { slug: string; test: (tags: Tags) => boolean }[] = [
  { slug: "airports", test: (t) => t.aeroway === "aerodrome" && !!t.iata },
  { slug: "malls", test: (t) => t.shop === "mall" },
  { slug: "campuses", test: (t) => t.amenity === "university" || t.amenity === "college" },
  { slug: "stations", test: (t) => t.railway === "station" },
  { slug: "hospitals", test: (t) => t.amenity === "hospital" },
];

/** "Café Zürich & Co." → "cafe-zurich-co" */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " ")
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export interface PlaceTags {
  name: string;
  categories: string[];
  chain?: { slug: string; name: string };
  group?: string;
}

/** The place an object's tags describe, or null when it is not one (unnamed, or no category). */
export function placeOf(tags: Tags): PlaceTags | null {
  const name = tags.name?.trim();
  if (!name) return null;
  const categories: string[] = [];
  for (const [key, values] of Object.entries(CATEGORIES)) {
    const value = tags[key];
    if (value === undefined) continue;
    const hit =
      values[value] ?? (key === "shop" && value !== "no" && value !== "vacant" ? OTHER_SHOP : undefined);
    if (!hit) continue;
    for (const slug of hit) if (!categories.includes(slug)) categories.push(slug);
  }
  if (!categories.length) return null;
  const brand = tags.brand?.trim();
  const chainSlug = brand ? slugify(brand) : "";
  const group = GROUPS.find((g) => g.test(tags))?.slug;
  return {
    name,
    categories,
    ...(chainSlug && { chain: { slug: chainSlug, name: brand! } }),
    ...(group && { group }),
  };
}
