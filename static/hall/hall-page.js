// The hall page's entry point (hall/screen.html loads it; the CSP allows no inline script).
import { start } from "./screen.js";

start();
