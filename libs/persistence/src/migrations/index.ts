import { CreateJobs1763683200000 } from './1763683200000-create-jobs';

/** The one migration set, shared by PGlite and Postgres. Append new migrations here. */
export const MIGRATIONS = [CreateJobs1763683200000];
