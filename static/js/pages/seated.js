// The event page's entry point for the seat banner's announcements (seat.js).
import { start } from "./seat.js";

start(window);
