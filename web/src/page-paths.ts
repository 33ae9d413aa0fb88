/**
 * Every page path of the app's route tree. The build writes them to `dist/page-paths.json` so
 * the server answers any other path 404 (with the not-found screen) rather than 200.
 */
export const pagePaths = {
  home: '/',
  myShifts: '/my-shifts',
  admin: '/admin',
  login: '/login',
} as const;

export const PAGE_PATHS_FILE = 'page-paths.json';
