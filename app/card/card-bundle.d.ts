declare module "virtual:card-bundle" {
  /** The offline member card's script, minified (platform/bundling/card-bundle.ts). */
  const script: string;
  export default script;
  /** A hash of the script: the service worker's cache name carries it. */
  export const version: string;
}
