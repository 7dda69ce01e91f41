/**
 * Matching a request to a manifest route as API Gateway does: static segments beat `{param}`
 * segments (`/sops/directory` wins over `/sops/{id}`), a trailing slash is ignored. The sandbox
 * router uses it to pick a handler, and the `$default` function (functions/system/not-found.ts) to
 * tell "no such path" (404) from "no such method on this path" (405 with `Allow`), so both answer
 * alike locally and in AWS.
 */
import { API_PREFIX, type RouteDefinition } from '../route.ts';

interface CompiledRoute<R extends RouteDefinition> {
  route: R;
  pattern: RegExp;
  names: string[];
  specificity: number[];
}

function compile<R extends RouteDefinition>(route: R): CompiledRoute<R> {
  const names: string[] = [];
  const segments = route.path === '' ? [] : route.path.split('/').slice(1);
  const source = segments
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      names.push(param[1]!);
      return '/([^/]+)';
    })
    .join('');
  return {
    route,
    pattern: new RegExp(`^${route.root ? '' : API_PREFIX}${source}/?$`),
    names,
    specificity: segments.map((s) => (s.startsWith('{') ? 0 : 1)),
  };
}

function moreSpecific(a: CompiledRoute<RouteDefinition>, b: CompiledRoute<RouteDefinition>): number {
  for (let i = 0; i < Math.max(a.specificity.length, b.specificity.length); i++) {
    const d = (b.specificity[i] ?? 0) - (a.specificity[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export interface RouteMatcher<R extends RouteDefinition> {
  /** The route for this method and path, with its decoded path parameters, or null. */
  match(method: string, path: string): { route: R; params: Record<string, string> } | null;
  /** The methods some route takes on this path (empty when no route has the path), for `Allow`. */
  methodsAllowed(path: string): string[];
}

export function routeMatcher<R extends RouteDefinition>(routes: readonly R[]): RouteMatcher<R> {
  const compiled = routes.map(compile).sort(moreSpecific);
  return {
    match(method, path) {
      for (const candidate of compiled) {
        if (candidate.route.method !== method) continue;
        const m = candidate.pattern.exec(path);
        if (!m) continue;
        const params: Record<string, string> = {};
        candidate.names.forEach((name, i) => {
          const raw = m[i + 1]!;
          try {
            params[name] = decodeURIComponent(raw);
          } catch {
            params[name] = raw;
          }
        });
        return { route: candidate.route, params };
      }
      return null;
    },
    methodsAllowed(path) {
      const methods = new Set(compiled.filter((c) => c.pattern.test(path)).map((c) => c.route.method));
      return [...methods].sort();
    },
  };
}
