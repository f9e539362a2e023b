import { defineConfig } from "vitest/config";

export default defineConfig({
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  test: {
    environment: "jsdom",
    include: ["js/**/*.test.{ts,tsx}"],
    globals: true,
  },
});
