"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ApiCallError } from "@/lib/api-client";

/** Asked once more after a failure, unless the server refused the request (4xx): it would again. */
const retry = (failures: number, e: Error) =>
  failures < 1 && !(e instanceof ApiCallError && e.status >= 400 && e.status < 500);

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry, refetchOnWindowFocus: false } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
