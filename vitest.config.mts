import { defineConfig } from "vitest/config";

export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  test: {
    environment: "jsdom",
    include: ["js/**/*.test.{ts,tsx}"],
    globals: true,
  },
});
