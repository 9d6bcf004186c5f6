// The admin pages, one chunk fetched only when an admin opens /admin. Each page lives in routes/admin/.
export { AdminLayoutRoute } from './admin/admin-layout';
export { AdminDashboardRoute } from './admin/dashboard';
export { AdminEditVideoRoute } from './admin/edit-video';
export { AdminVideosRoute } from './admin/videos';
export { AdminUploadRoute } from './admin/upload';
export { AdminJobsRoute } from './admin/jobs';
export { AdminTaxonomyRoute } from './admin/taxonomy';
export { AdminRemovalsRoute } from './admin/removals';
export { AdminAdsRoute, AdminAdZoneRoute } from './admin/ads';
