// host -> the function of the back office's backend (`/api/*` and `/auth/*` of the back office's address).
export { backOfficeHandler as handler } from '../back-office-services';
