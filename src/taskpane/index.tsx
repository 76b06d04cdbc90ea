// Placeholder entry so the build runs; the task pane's owner replaces this file.
import { createRoot } from "react-dom/client";

const container = document.getElementById("root");
if (container) createRoot(container).render(<p>BizData task pane</p>);
