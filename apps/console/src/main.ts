/*
 * The console's script: one function per page (chosen by <body data-page>), bundled by esbuild into
 * /console/assets/console.js (scripts/build.js). Pages are rendered on the server; this fills them from the
 * public API with the session cookie and the page's CSRF token (X-CSRF-Token). No framework, nothing
 * loaded from elsewhere.
 */
import { adminJobsPage } from './pages/admin-jobs/admin-jobs.page';
import { adminQueuePage } from './pages/admin-queue/admin-queue.page';
import { adminUsersPage } from './pages/admin-users/admin-users.page';
import { analyticsPage } from './pages/analytics/analytics.page';
import { connectionsPage } from './pages/connections/connections.page';
import { convertPage } from './pages/convert/convert.page';
import { jobPage } from './pages/job/job.page';
import { jobsPage } from './pages/jobs/jobs.page';
import { keysPage } from './pages/keys/keys.page';
import { overviewPage } from './pages/overview/overview.page';
import { showcasePage } from './pages/showcase/showcase.page';
import { showcasesPage } from './pages/showcases/showcases.page';
import { usagePage } from './pages/usage/usage.page';
import { webhooksPage } from './pages/webhooks/webhooks.page';
import { installCopyButtons } from './shared/copy-buttons';

/** The page functions by `data-page` (apps/api/src/console/console.pages.ts names them). */
const pages: Record<string, () => void> = {
  overview: overviewPage,
  keys: keysPage,
  showcases: showcasesPage,
  showcase: showcasePage,
  connections: connectionsPage,
  jobs: jobsPage,
  job: jobPage,
  usage: usagePage,
  analytics: analyticsPage,
  convert: convertPage,
  webhooks: webhooksPage,
  'admin-users': adminUsersPage,
  'admin-jobs': adminJobsPage,
  'admin-queue': adminQueuePage,
};

installCopyButtons();
const run = pages[String(document.body.getAttribute('data-page'))];
if (run) run();
