// frontend/onboarding/frame -> zod runs "jitless" in the frame: its compiler probes `new Function`, which
// the frame's CSP refuses (and reports). Imported first by the entry point, before any schema parses.
import { config } from 'zod/mini';

config({ jitless: true });
