import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the other command-line tools (`npm run worker`, `npm run sync`) find the built-in
 * simulator that `npm start` runs: its address and client credentials, kept (mode 600) in the
 * data folder while it runs, like the embedded database's address.
 */
const file = (dataDir: string) => path.join(dataDir, 'simulator.json');

export interface SimulatorAddress {
  url: string;
  clientId: string;
  clientSecret: string;
}

export function writeSimulatorAddress(dataDir: string, a: SimulatorAddress): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file(dataDir), JSON.stringify(a), { mode: 0o600 });
}

export function removeSimulatorAddress(dataDir: string): void {
  fs.rmSync(file(dataDir), { force: true });
}

/** The IDV_* variables of the running built-in simulator, or {} when none runs. */
export function simulatorEnv(dataDir: string): Record<string, string> {
  if (!fs.existsSync(file(dataDir))) return {};
  const a = JSON.parse(fs.readFileSync(file(dataDir), 'utf8')) as SimulatorAddress;
  return { IDV_BASE_URL: a.url, IDV_CLIENT_ID: a.clientId, IDV_CLIENT_SECRET: a.clientSecret };
}
