package io.kafkamv.service.query;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntUnaryOperator;
import java.util.function.Predicate;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The comparisons of a WHERE clause a view's scan can apply to each row as it reads it, on its reading threads,
 * so that rows the query would drop are never handed to it: those conjuncts that compare an exact number column with
 * a number ({@code g = 7}, {@code id < 1000}) or test it for null. It only ever leaves out rows the query's own filter,
 * which still runs, would drop; conjuncts it does not know it leaves to that filter.
 */
final class ScanFilter implements Predicate<Object[]> {

    private static final java.util.Set<SqlKind> COMPARISONS = java.util.EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS,
        SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL);

    private static final java.util.Set<SqlTypeName> EXACT_NUMBERS = java.util.EnumSet.of(SqlTypeName.TINYINT,
        SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DECIMAL);

    /**
     * One conjunct: the value in {@code field} of a row, compared by {@code kind} with {@code literal}.
     *
     * @param whole the literal as a long, when it is a whole number a long holds (most are): compared without a
     *              BigDecimal per row
     */
    private record Comparison(int field, SqlKind kind, BigDecimal literal, Long whole) {

        static Comparison of(int field, SqlKind kind, BigDecimal literal) {
            Long whole = null;
            if (literal != null) {
                try {
                    whole = literal.longValueExact();
                } catch (ArithmeticException fraction) {
                    // Compared as a BigDecimal.
                }
            }
            return new Comparison(field, kind, literal, whole);
        }

        boolean holds(Object value) {
            if (kind == SqlKind.IS_NULL) {
                return value == null;
            }
            if (kind == SqlKind.IS_NOT_NULL) {
                return value != null;
            }
            if (value == null) {
                // A comparison with null is null, and WHERE drops the row.
                return false;
            }
            int order = value instanceof BigDecimal decimal ? decimal.compareTo(literal) : compare(((Number) value).longValue());
            return switch (kind) {
                case EQUALS -> order == 0;
                case NOT_EQUALS -> order != 0;
                case LESS_THAN -> order < 0;
                case LESS_THAN_OR_EQUAL -> order <= 0;
                case GREATER_THAN -> order > 0;
                case GREATER_THAN_OR_EQUAL -> order >= 0;
                default -> true;
            };
        }

        private int compare(long value) {
            return whole != null ? Long.compare(value, whole) : BigDecimal.valueOf(value).compareTo(literal);
        }
    }

    private final List<Comparison> comparisons;

    private ScanFilter(List<Comparison> comparisons) {
        this.comparisons = comparisons;
    }

    /** The conjuncts of {@code condition} over rows of {@code rowType} a scan can apply; empty when there are none. */
    static Optional<ScanFilter> of(RexNode condition, RelDataType rowType) {
        List<Comparison> comparisons = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            comparison(conjunct, rowType).ifPresent(comparisons::add);
        }
        return comparisons.isEmpty() ? Optional.empty() : Optional.of(new ScanFilter(List.copyOf(comparisons)));
    }

    private static Optional<Comparison> comparison(RexNode conjunct, RelDataType rowType) {
        if (!(conjunct instanceof RexCall call)) {
            return Optional.empty();
        }
        SqlKind kind = call.getKind();
        if ((kind == SqlKind.IS_NULL || kind == SqlKind.IS_NOT_NULL) && isExactNumber(call.operands.get(0), rowType)) {
            return Optional.of(Comparison.of(((RexInputRef) call.operands.get(0)).getIndex(), kind, null));
        }
        if (!COMPARISONS.contains(kind) || call.operands.size() != 2) {
            return Optional.empty();
        }
        RexNode left = call.operands.get(0);
        RexNode right = call.operands.get(1);
        if (isExactNumber(left, rowType) && isNumber(right)) {
            return Optional.of(Comparison.of(((RexInputRef) left).getIndex(), kind, literal(right)));
        }
        if (isExactNumber(right, rowType) && isNumber(left)) {
            return Optional.of(Comparison.of(((RexInputRef) right).getIndex(), kind.reverse(), literal(left)));
        }
        return Optional.empty();
    }

    private static boolean isExactNumber(RexNode node, RelDataType rowType) {
        return node instanceof RexInputRef ref
            && EXACT_NUMBERS.contains(rowType.getFieldList().get(ref.getIndex()).getType().getSqlTypeName());
    }

    private static boolean isNumber(RexNode node) {
        return node instanceof RexLiteral literal && !literal.isNull()
            && EXACT_NUMBERS.contains(literal.getType().getSqlTypeName());
    }

    private static BigDecimal literal(RexNode node) {
        return ((RexLiteral) node).getValueAs(BigDecimal.class);
    }

    /** The same filter over rows whose fields are elsewhere: field {@code i} of this filter's rows is {@code at(i)}. */
    ScanFilter moved(IntUnaryOperator at) {
        return new ScanFilter(comparisons.stream()
            .map(comparison -> new Comparison(at.applyAsInt(comparison.field()), comparison.kind(), comparison.literal(),
                comparison.whole()))
            .toList());
    }

    /** The fields of the rows the filter reads. */
    java.util.Set<Integer> fields() {
        return comparisons.stream().map(Comparison::field).collect(java.util.stream.Collectors.toSet());
    }

    /** Whether the row may pass the query's filter: false only when one of the comparisons is false or null. */
    @Override
    public boolean test(Object[] row) {
        for (Comparison comparison : comparisons) {
            if (!comparison.holds(row[comparison.field()])) {
                return false;
            }
        }
        return true;
    }

    /** As plans show it: {@code [$1 = 7, $0 > 10]}. */
    @Override
    public String toString() {
        return comparisons.stream().map(comparison -> "$" + comparison.field() + " " + switch (comparison.kind()) {
            case IS_NULL -> "IS NULL";
            case IS_NOT_NULL -> "IS NOT NULL";
            default -> comparison.kind().sql + " " + comparison.literal().toPlainString();
        }).toList().toString();
    }
}
