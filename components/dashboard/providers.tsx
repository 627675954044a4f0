"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ApiCallError } from "@/lib/api-client";

/**
 * Asked once more after a failure, unless the server refused the request (a 4xx other than a
 * timeout or a rate limit): it would again.
 */
const refused = (e: Error) =>
  e instanceof ApiCallError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429;
const retry = (failures: number, e: Error) => failures < 1 && !refused(e);

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry, refetchOnWindowFocus: false } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
