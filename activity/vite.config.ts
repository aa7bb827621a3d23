import { defineConfig } from "vite";

// The page is built into the bot's package, which serves it (bot/web/static).
export default defineConfig({
  base: "/",
  build: {
    outDir: "../bot/web/static",
    emptyOutDir: true,
    modulePreload: false,
    target: "es2020",
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
