// test -> the settings of the local stack the back office's browser files share (useSharedStack). Their
// staff, dev-bootstrap's, see every organisation's records: the API files' shared stack fills the lists
// these files read first pages of (production sign-ups, oldest first; the reviews due, whose newest one
// a test names), so these two files keep a stack of their own between them. Neither floods it (rate
// limits off, as each had) nor reads request history, which is off: the setting that keys it apart.
// Between the two they keep apart by data: the reviews file sends from an organisation of its own
// (createTenant), and only the operations file changes dev-bootstrap's organisation.
export const BACK_OFFICE_STACK = { RATE_LIMITS: 'off', REQUEST_HISTORY: 'off' };
