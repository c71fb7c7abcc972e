/**
 * B-COST-TEAM's hosted mode: the hub under test started inside the fair baseline's process
 * (bench/baseline-server.ts), beside the baseline, so both sides' legs are measured in one
 * process. The runner passes what to start in one environment variable; this module is all the
 * baseline's process loads of it.
 */
import { z } from 'zod';

/** `{entry, args}`: the built CLI's module and the `zcode-hub` arguments to start it with (JSON). */
export const HOSTED_HUB_ENV = 'ZCODE_HUB_BENCH_HOSTED_HUB';

export const hostedHubSchema = z.object({ entry: z.string(), args: z.array(z.string()) });
export type HostedHub = z.infer<typeof hostedHubSchema>;

/** The hub this process is asked to host, if any. */
export function hostedHubFromEnv(env: NodeJS.ProcessEnv = process.env): HostedHub | undefined {
  const text = env[HOSTED_HUB_ENV];
  return text === undefined ? undefined : hostedHubSchema.parse(JSON.parse(text));
}
