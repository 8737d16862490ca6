package dev.breaker.micrometer;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * Captures, formatted, what is logged to one {@code System.Logger}, which the JDK backs with the
 * {@code java.util.logging} logger of the same name (not passed on to the console while
 * capturing). Through reflection, because the module the tests are patched into does not read
 * {@code java.logging}.
 */
final class LogCapture implements AutoCloseable {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Object logger;
    private final Object handler;
    private final Method removeHandler;
    private final Method flush;
    private final Method useParentHandlers;
    private final boolean parentHandlersBefore;

    LogCapture(String name) throws ReflectiveOperationException {
        Class<?> loggerClass = Class.forName("java.util.logging.Logger");
        Class<?> handlerClass = Class.forName("java.util.logging.Handler");
        Class<?> formatterClass = Class.forName("java.util.logging.Formatter");
        Object formatter = Class.forName("java.util.logging.SimpleFormatter")
                .getConstructor()
                .newInstance();
        handler = Class.forName("java.util.logging.StreamHandler")
                .getConstructor(java.io.OutputStream.class, formatterClass)
                .newInstance(out, formatter);
        logger = loggerClass.getMethod("getLogger", String.class).invoke(null, name);
        loggerClass.getMethod("addHandler", handlerClass).invoke(logger, handler);
        removeHandler = loggerClass.getMethod("removeHandler", handlerClass);
        flush = handlerClass.getMethod("flush");
        useParentHandlers = loggerClass.getMethod("setUseParentHandlers", boolean.class);
        parentHandlersBefore =
                (Boolean) loggerClass.getMethod("getUseParentHandlers").invoke(logger);
        useParentHandlers.invoke(logger, false);
    }

    /** Everything logged since the capture began, formatted. */
    String text() throws ReflectiveOperationException {
        flush.invoke(handler);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws ReflectiveOperationException {
        removeHandler.invoke(logger, handler);
        useParentHandlers.invoke(logger, parentHandlersBefore);
    }
}
