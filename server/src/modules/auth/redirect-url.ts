// One leading '/', then no second '/' or '\' (a protocol-relative URL would leave the site), no backslash,
// whitespace or control character anywhere (browsers drop tabs and newlines, turning '/\t/x' into '//x').
// eslint-disable-next-line no-control-regex -- control characters are what it rejects
const SAME_ORIGIN_PATH = /^\/(?![/\\])[^\\\s\x00-\x1f\x7f]*$/;

/** Where login sends the user: the asked-for return path if it stays on this site, else '/'. */
export function safeRedirectUrl(returnUrl: string | undefined): string {
  return returnUrl && SAME_ORIGIN_PATH.test(returnUrl) ? returnUrl : '/';
}
