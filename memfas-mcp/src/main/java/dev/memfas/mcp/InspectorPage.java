package dev.memfas.mcp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The inspector's page: three files from the jar, and nothing else. Its policy lets the page run only its own script
 * and reach only its own server, so that a memory's text, were it ever read as markup, could still run nothing and
 * send nothing away.
 */
final class InspectorPage extends HttpServlet {
    private static final String ROOT = "/dev/memfas/mcp/inspector/";
    private static final Map<String, String> FILES = Map.of(
            "/", "index.html", "/index.html", "index.html",
            "/inspector.js", "inspector.js", "/inspector.css", "inspector.css");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8");
    /** Inline styles are allowed for the report's charts, shown in a sandboxed frame that runs no script. */
    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';"
            + " connect-src 'self'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none';"
            + " frame-ancestors 'none'";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI();
        String file = FILES.get(path);
        if (file == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        try (InputStream in = InspectorPage.class.getResourceAsStream(ROOT + file)) {
            if (in == null) {
                response.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "the page is missing from the jar");
                return;
            }
            byte[] bytes = in.readAllBytes();
            response.setContentType(TYPES.get(file.substring(file.lastIndexOf('.') + 1)));
            response.setHeader("Content-Security-Policy", POLICY);
            response.setHeader("X-Content-Type-Options", "nosniff");
            response.setHeader("Referrer-Policy", "no-referrer");
            response.setHeader("Cache-Control", "no-store");
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        }
    }
}
