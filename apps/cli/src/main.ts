import { ConfigError, loadCliConfigFromProcess } from '@app/config';
import { parseArgs, runAdminCli, USAGE, UsageError } from './admin-cli';

/** `npm run admin -- <command>`: the operators' CLI over the admin API. */
async function main(): Promise<number> {
  const io = { out: (s: string) => console.log(s), err: (s: string) => console.error(s), isTTY: process.stdout.isTTY === true };
  try {
    const args = parseArgs(process.argv.slice(2));
    const config =
      args.command === 'help' ? { apiUrl: '', ownerKey: '' } : loadCliConfigFromProcess({ url: args.flags.url, key: args.flags.key });
    return await runAdminCli(args, config, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`admin: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.err(err.message);
      return 2;
    }
    throw err;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`admin: ${(err as Error).message}`);
    process.exit(1);
  },
);
