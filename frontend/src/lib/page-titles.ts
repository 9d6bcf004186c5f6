/**
 * Every page's title, written once: the pages name them in the browser (DocumentTitle) and the server's render
 * writes the same in the document's head (app/head/page-heads.ts).
 */
export const PAGE_TITLES = {
  login: 'Log in',
  register: 'Sign up',
  terms: 'Terms of service',
  records: '18 U.S.C. 2257 statement',
  contentRemoval: 'Content removal',
  search: 'Search',
  categories: 'Categories',
  performers: 'Performers',
  tags: 'Tags',
  hiddenTopics: 'Hidden topics',
  pageNotFound: 'Page not found',
  videoNotFound: 'Video not found',
} as const;

/** A search's results page. */
export const searchTitle = (q: string) => `${q} – search`;

/** A category's, a performer's or a tag's page. */
export const taxonTitle = (name: string) => `${name} videos`;

/** The watch page and the embed: the video's title as the brand shows it, and the site's name. */
export const videoPageTitle = (title: string, siteName: string) => `${title} - ${siteName}`;
