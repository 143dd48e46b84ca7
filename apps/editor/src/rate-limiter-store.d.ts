// rate-limiter-flexible's base class for stores: its typings declare it with the package's exports,
// but the package exports it only at this path (no "exports" map, so the path is public).
declare module "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js" {
  import type { RateLimiterStoreAbstract } from "rate-limiter-flexible";

  const Base: typeof RateLimiterStoreAbstract;
  export default Base;
}
