// Header values shared by next.config.ts (read at build time, so no env and no "@/" imports here)
// and the proxy.

/** Headers every response carries (next.config.ts `headers`). */
export const STATIC_SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // For browsers that predate CSP's frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

/**
 * The CSP of responses that are no page (API JSON, the engine's routes, redirects): they load
 * nothing and nobody may frame them. Pages get theirs, with a nonce, from the proxy.
 */
export const NON_DOCUMENT_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** HSTS for two years, subdomains included; sent only when the app is served over HTTPS. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";
