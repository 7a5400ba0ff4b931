/**
 * Test fixture of data-directory-lock.test.ts: opens the embedded database in `argv[2]` as the server does,
 * says "opened", and closes it when its standard input ends. A refusal is printed and exits with code 3.
 */
import { openPgliteConnection } from './client';

try {
  const connection = openPgliteConnection(process.argv[2]);
  await connection.execute('select 1');
  process.stdout.write('opened\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    void connection.close().then(() => process.exit(0));
  });
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(3);
}
