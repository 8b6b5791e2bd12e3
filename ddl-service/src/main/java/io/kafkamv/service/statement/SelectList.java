package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The items of a query's outermost select list, split at top-level commas, and what they are called. */
final class SelectList {

    private static final Pattern ALIAS = Pattern.compile("(?is).*\\bas\\s+\"?([A-Za-z_ ]+?)\"?\\s*$");

    private SelectList() {
    }

    static List<String> items(String sql) {
        String text = sql.strip();
        int start = text.toLowerCase(Locale.ROOT).indexOf("select") + "select".length();
        List<String> items = new ArrayList<>();
        int depth = 0;
        int itemStart = start;
        boolean quoted = false;
        boolean identifier = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' && !identifier) {
                quoted = !quoted;
            } else if (c == '"' && !quoted) {
                identifier = !identifier;
            } else if (!quoted && !identifier) {
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                } else if (depth == 0 && c == ',') {
                    items.add(text.substring(itemStart, i).strip());
                    itemStart = i + 1;
                } else if (depth == 0 && startsWord(text, i, "from")) {
                    items.add(text.substring(itemStart, i).strip());
                    return items;
                }
            }
        }
        items.add(text.substring(itemStart).strip());
        return items;
    }

    static String name(String item) {
        Matcher alias = ALIAS.matcher(item);
        if (alias.matches()) {
            return alias.group(1);
        }
        String head = item.replaceAll("\\(.*", "");
        int dot = head.lastIndexOf('.');
        return dot < 0 ? head.strip() : head.substring(dot + 1).strip();
    }

    static boolean isNumeric(String item) {
        String lower = item.toLowerCase(Locale.ROOT);
        return lower.equals("c.oid") || lower.endsWith(".oid") || lower.contains("relchecks") || lower.contains("reltablespace");
    }

    private static boolean startsWord(String text, int i, String word) {
        return text.regionMatches(true, i, word, 0, word.length())
            && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))
            && i + word.length() < text.length() && Character.isWhitespace(text.charAt(i + word.length()));
    }
}
