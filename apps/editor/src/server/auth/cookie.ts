/** Better Auth's cookie names start with this (`coauthor.session_token`); shared by the proxy and the server. */
export const AUTH_COOKIE_PREFIX = "coauthor";
