// host -> the function of the portal's backend (`/api/*` and `/auth/*` of the portal's address).
export { portalHandler as handler } from '../portal-services';
