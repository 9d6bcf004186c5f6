/** The built web client (`WebBuild`), or null when the server runs without one (the API alone, most tests). */
export const WEB_BUILD = Symbol('WEB_BUILD');
export const PAGE_RENDERER = Symbol('PAGE_RENDERER');
