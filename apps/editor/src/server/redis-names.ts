import { env } from "@/env";

/**
 * The name of a Redis key, key prefix or channel, in this deployment's namespace (REDIS_NAMESPACE):
 * deployments that share one Redis never count or hear each other's. Every name the app uses in
 * Redis goes through here.
 */
export function redisName(name: string): string {
  return env.REDIS_NAMESPACE ? `${env.REDIS_NAMESPACE}:${name}` : name;
}
