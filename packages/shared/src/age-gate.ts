/**
 * The cookie the web client sets (value `true`) once a visitor has answered the 18+ gate, which tells the server to
 * render pages without the gate (docs/web-client.md › "Server rendering").
 */
export const AGE_CONFIRMED_COOKIE = 'age_confirmed';
