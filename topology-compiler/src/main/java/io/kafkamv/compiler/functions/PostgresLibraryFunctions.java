package io.kafkamv.compiler.functions;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;

/**
 * The functions of Calcite's PostgreSQL library ({@code md5}, {@code left}, {@code greatest}, {@code to_char}, ...).
 * Calcite names them in upper case and its lookup of a name is case-sensitive as kafka-mv's identifiers are, so a
 * call written {@code md5(s)}, folded to lower case as PostgreSQL folds it, found nothing: the parser names such a
 * call in upper case. A function kafka-mv defines itself under the same name ({@code length}) stays its own.
 */
public final class PostgresLibraryFunctions {

    private static final Set<String> OURS = Set.of("LENGTH", "AGE");

    /** PostgreSQL's names of functions Calcite has under another name, or that kafka-mv defines in its place. */
    private static final Map<String, String> CALCITE_NAMES = Map.of("TRUNC", "TRUNCATE",
        "DATE_PART", DatePartFunction.DATE_PART, "LEFT", TextFunctions.LEFT, "RIGHT", TextFunctions.RIGHT,
        "LTRIM", TextFunctions.LTRIM, "RTRIM", TextFunctions.RTRIM, "STRING_TO_ARRAY", TextFunctions.STRING_TO_ARRAY);

    /** Calcite's names of functions PostgreSQL calls otherwise, for the names of result columns. */
    private static final Map<String, String> POSTGRES_NAMES = Map.ofEntries(Map.entry("truncate", "trunc"),
        Map.entry("translate3", "translate"), Map.entry("listagg", "string_agg"),
        Map.entry(DatePartFunction.DATE_PART, "date_part"), Map.entry(DatePartFunction.EXTRACT, "extract"),
        Map.entry(TextFunctions.LEFT, "left"), Map.entry(TextFunctions.RIGHT, "right"),
        Map.entry(TextFunctions.LTRIM, "ltrim"), Map.entry(TextFunctions.RTRIM, "rtrim"),
        Map.entry(TextFunctions.STRING_TO_ARRAY, "string_to_array"), Map.entry(TextFunctions.SUBSTRING_MATCH, "substring"));

    private static final Set<String> NAMES = SqlLibraryOperatorTableFactory.INSTANCE
        .getOperatorTable(SqlLibrary.POSTGRESQL).getOperatorList().stream()
        .filter(operator -> operator.getSyntax() == SqlSyntax.FUNCTION)
        .map(operator -> operator.getName())
        .filter(name -> !OURS.contains(name))
        .collect(Collectors.toUnmodifiableSet());

    private PostgresLibraryFunctions() {
    }

    /** The name Calcite's library knows a function by, if {@code name} as written (unquoted) is one of its. */
    public static Optional<String> libraryName(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (CALCITE_NAMES.containsKey(upper)) {
            return Optional.of(CALCITE_NAMES.get(upper));
        }
        return NAMES.contains(upper) ? Optional.of(upper) : Optional.empty();
    }

    /** The name PostgreSQL gives a column of a call of this function, by its name in lower case. */
    public static String postgresName(String function) {
        return POSTGRES_NAMES.getOrDefault(function, function);
    }
}
