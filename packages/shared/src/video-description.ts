/**
 * A video's description where one is needed (the server's head and sitemaps, the web client's JSON-LD): its title,
 * then who is in it and its categories; the catalogue has no other text.
 */
export function describeVideo(title: string, performers: string[], categories: string[]): string {
  return [
    title,
    performers.length ? `With ${performers.join(', ')}.` : '',
    categories.length ? `Categories: ${categories.join(', ')}.` : '',
  ].filter(Boolean).join(' ');
}
