import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

/**
 * Every page is rendered per request: its scripts carry the nonce of that request's
 * Content-Security-Policy (proxy.ts), which a page rendered at build time would not have.
 */
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Location platform",
  description: "Self-hosted geofences, tracking, events and context, speaking Radar's v1 API",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
