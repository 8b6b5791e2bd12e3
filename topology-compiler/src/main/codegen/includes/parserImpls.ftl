<#-- kafka-mv statements, spliced into Calcite's Parser.jj. -->

boolean IfNotExistsOpt() :
{
}
{
    <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean IfExistsOpt() :
{
}
{
    <IF> <EXISTS> { return true; }
|
    { return false; }
}

/**
 * SET and RESET as PostgreSQL writes them: SET [SESSION | LOCAL] name { = | TO } { value [, ...] | DEFAULT },
 * SET TIME ZONE { value | LOCAL | DEFAULT }, RESET name, RESET ALL. DEFAULT (and LOCAL for the time zone) is
 * the unquoted identifier DEFAULT; a list of values (SET search_path TO a, b) is a node list.
 */
SqlSetOption SqlPostgresSetOption(Span s, String scope) :
{
    SqlIdentifier name;
    SqlNode val;
    final List<SqlNode> values = new ArrayList<SqlNode>();
}
{
    (
        <SET> { s.add(this); }
        [ LOOKAHEAD(2) ( <SESSION> | <LOCAL> ) ]
        (
            LOOKAHEAD(2) <TIME> <ZONE> { name = new SqlIdentifier("timezone", getPos()); }
            (
                val = SetOptionValue()
            |
                ( <LOCAL> | <DEFAULT_> ) { val = new SqlIdentifier("DEFAULT", getPos()); }
            )
        |
            name = CompoundIdentifier()
            ( <EQ> | <TO> )
            (
                <DEFAULT_> { val = new SqlIdentifier("DEFAULT", getPos()); }
            |
                val = SetOptionValue() { values.add(val); }
                (
                    <COMMA> val = SetOptionValue() { values.add(val); }
                )*
                {
                    val = values.size() == 1 ? values.get(0) : new SqlNodeList(values, s.end(this));
                }
            )
        )
        {
            return new SqlSetOption(s.end(this), scope, (SqlNode) name, val);
        }
    |
        <RESET> { s.add(this); }
        (
            name = CompoundIdentifier()
        |
            <ALL> { name = new SqlIdentifier(token.image.toUpperCase(Locale.ROOT), getPos()); }
        )
        {
            return new SqlSetOption(s.end(name), scope, (SqlNode) name, null);
        }
    )
}

SqlNode SetOptionValue() :
{
    final SqlNode val;
}
{
    (
        LOOKAHEAD(2) val = Literal()
    |
        val = SimpleIdentifier()
    |
        <ON> { val = new SqlIdentifier(token.image.toUpperCase(Locale.ROOT), getPos()); }
    )
    { return val; }
}

/** WITH (key = value, ...): keys may be dotted (scan.startup.mode) or quoted. */
Map<String, String> WithOptionsOpt() :
{
    final Map<String, String> options = new LinkedHashMap<String, String>();
}
{
    [
        LOOKAHEAD(2)
        <WITH> <LPAREN>
        WithOption(options)
        ( <COMMA> WithOption(options) )*
        <RPAREN>
    ]
    { return options; }
}

/** A part of an option's key: a name, or one of the reserved words options are named after (table, user). */
String OptionKeyPart() :
{
    SqlIdentifier id;
}
{
    id = SimpleIdentifier() { return id.getSimple(); }
|
    <TABLE> { return "table"; }
|
    <USER> { return "user"; }
}

void WithOption(Map<String, String> options) :
{
    String key;
    String part;
    final String value;
    SqlIdentifier id;
    SqlNode literal;
}
{
    (
        key = OptionKeyPart() ( <DOT> part = OptionKeyPart() { key = key + "." + part; } )*
    |
        <QUOTED_STRING> { key = SqlParserUtil.parseString(token.image); }
    )
    <EQ>
    (
        literal = StringLiteral() { value = ((SqlLiteral) literal).getValueAs(String.class); }
    |
        literal = NumericLiteral() { value = ((SqlLiteral) literal).toValue(); }
    |
        <TRUE> { value = "true"; }
    |
        <FALSE> { value = "false"; }
    |
        id = CompoundIdentifier() { value = String.join(".", id.names); }
    )
    {
        if (options.put(key, value) != null) {
            throw new ParseException("Option '" + key + "' is given twice");
        }
    }
}

void TableElement(SqlNodeList columns, SqlNodeList primaryKey) :
{
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    final boolean nullable;
    final Span s = Span.of();
    SqlNodeList keyColumns;
}
{
    LOOKAHEAD(2)
    <PRIMARY> <KEY> keyColumns = ParenthesizedSimpleIdentifierList() {
        primaryKey.addAll(keyColumns);
    }
|
    id = SimpleIdentifier()
    (
        type = DataType()
    |
        // PostgreSQL's interval column, without units.
        <INTERVAL> { type = new SqlDataTypeSpec(new SqlUserDefinedTypeNameSpec("INTERVAL", getPos()), getPos()); }
    )
    nullable = NullableOptDefaultTrue()
    [
        <PRIMARY> <KEY> { primaryKey.add(id); }
    ]
    {
        columns.add(SqlDdlNodes.column(s.add(id).end(this), id,
            type.withNullable(nullable), null, null));
    }
}

/** CREATE TABLE name (columns) [WITH (...)] and CREATE SOURCE name [(columns)] WITH (...). */
SqlCreate SqlCreateTableOrSource(Span s, boolean replace) :
{
    final SqlObjectKind kind;
    final boolean ifNotExists;
    final SqlIdentifier id;
    final SqlNodeList columns = new SqlNodeList(getPos());
    final SqlNodeList primaryKey = new SqlNodeList(getPos());
    final List<SourceInclude> includes = new ArrayList<SourceInclude>();
    final Map<String, String> options;
}
{
    (
        <TABLE> { kind = SqlObjectKind.TABLE; }
    |
        <SOURCE> { kind = SqlObjectKind.SOURCE; }
    )
    ifNotExists = IfNotExistsOpt()
    id = CompoundIdentifier()
    [
        <LPAREN>
        TableElement(columns, primaryKey)
        ( <COMMA> TableElement(columns, primaryKey) )*
        <RPAREN>
    ]
    ( SourceIncludeClause(includes) )*
    options = WithOptionsOpt()
    {
        return new SqlCreateRelation(s.end(this), kind, ifNotExists, id, columns, primaryKey, includes, options);
    }
}

/** INCLUDE timestamp | partition | offset | key | header 'name' [AS column], as RisingWave writes it. */
void SourceIncludeClause(List<SourceInclude> includes) :
{
    final Span s;
    final String what;
    String header = null;
    SqlIdentifier word;
    SqlIdentifier column = null;
}
{
    <INCLUDE> { s = span(); }
    (
        <OFFSET> { what = "offset"; }
    |   // Also timestamp, partition, key and header: non-reserved keywords, which an identifier matches.
        word = SimpleIdentifier() { what = word.getSimple(); }
        [ header = SimpleStringLiteral() ]
    )
    [ <AS> column = SimpleIdentifier() ]
    {
        includes.add(new SourceInclude(what, header, column == null ? null : column.getSimple(), s.end(this)));
    }
}

SqlCreate SqlCreateMaterializedViewStatement(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final Map<String, String> options;
    final SqlNode query;
}
{
    <MATERIALIZED> <VIEW>
    ifNotExists = IfNotExistsOpt()
    id = CompoundIdentifier()
    options = WithOptionsOpt()
    <AS>
    query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new SqlCreateMaterializedView(s.end(this), ifNotExists, id, options, query);
    }
}

/** CREATE SINK name FROM view WITH (...) or CREATE SINK name AS query WITH (...). */
SqlCreate SqlCreateSinkStatement(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlIdentifier from = null;
    SqlNode query = null;
    final Map<String, String> options;
}
{
    <SINK>
    ifNotExists = IfNotExistsOpt()
    id = CompoundIdentifier()
    (
        <FROM> from = CompoundIdentifier()
    |
        <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    options = WithOptionsOpt()
    {
        return new SqlCreateSink(s.end(this), ifNotExists, id, from, query, options);
    }
}

SqlCreate SqlCreateIndexStatement(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final SqlIdentifier on;
    final SqlNodeList columns;
    final Map<String, String> options;
}
{
    <INDEX>
    ifNotExists = IfNotExistsOpt()
    id = CompoundIdentifier()
    <ON> on = CompoundIdentifier()
    columns = ParenthesizedSimpleIdentifierList()
    options = WithOptionsOpt()
    {
        return new SqlCreateIndex(s.end(this), ifNotExists, id, on, columns, options);
    }
}

SqlDrop SqlDropObjectStatement(Span s, boolean replace) :
{
    final SqlObjectKind kind;
    final boolean ifExists;
    final SqlIdentifier id;
    boolean cascade = false;
}
{
    (
        <TABLE> { kind = SqlObjectKind.TABLE; }
    |
        <SOURCE> { kind = SqlObjectKind.SOURCE; }
    |
        <MATERIALIZED> <VIEW> { kind = SqlObjectKind.MATERIALIZED_VIEW; }
    |
        <SINK> { kind = SqlObjectKind.SINK; }
    |
        <INDEX> { kind = SqlObjectKind.INDEX; }
    )
    ifExists = IfExistsOpt()
    id = CompoundIdentifier()
    [ <CASCADE> { cascade = true; } ]
    {
        return new SqlDropObject(s.end(this), kind, ifExists, id, cascade);
    }
}

/** SHOW JOBS | TABLES | SOURCES | MATERIALIZED VIEWS | SINKS | INDEXES | ALL | TIME ZONE | variable. */
SqlNode SqlShowStatement() :
{
    final Span s;
    final SqlIdentifier name;
    final SqlNode pattern;
}
{
    <SHOW> { s = span(); }
    (
        LOOKAHEAD(2) <JOBS>
        (
            <LIKE> pattern = StringLiteral() {
                return SqlShow.jobsLike(s.end(this), SqlLiteral.unchain(pattern).getValueAs(String.class));
            }
        |
            { return SqlShow.of(s.end(this), SqlShow.What.JOBS); }
        )
    |
        LOOKAHEAD(2) <TABLES> { return SqlShow.of(s.end(this), SqlShow.What.TABLES); }
    |
        LOOKAHEAD(2) <SOURCES> { return SqlShow.of(s.end(this), SqlShow.What.SOURCES); }
    |
        LOOKAHEAD(2) <MATERIALIZED> <VIEWS> { return SqlShow.of(s.end(this), SqlShow.What.MATERIALIZED_VIEWS); }
    |
        LOOKAHEAD(2) <SINKS> { return SqlShow.of(s.end(this), SqlShow.What.SINKS); }
    |
        LOOKAHEAD(2) <INDEXES> { return SqlShow.of(s.end(this), SqlShow.What.INDEXES); }
    |
        LOOKAHEAD(2) <ALL> { return SqlShow.of(s.end(this), SqlShow.What.ALL); }
    |
        LOOKAHEAD(2) <TIME> <ZONE> { return SqlShow.variable(s.end(this), new SqlIdentifier("timezone", s.end(this))); }
    |
        name = CompoundIdentifier() { return SqlShow.variable(s.end(this), name); }
    )
}

/** CANCEL JOBS 1002, 1003, or CANCEL JOB 1002 */
SqlNode SqlCancelJobsStatement() :
{
    final Span s;
    final List<Long> ids = new ArrayList<Long>();
    SqlNode id;
}
{
    <CANCEL> { s = span(); }
    ( <JOBS> | <JOB> )
    id = UnsignedNumericLiteral() { ids.add(((SqlLiteral) id).longValue(true)); }
    (
        <COMMA>
        id = UnsignedNumericLiteral() { ids.add(((SqlLiteral) id).longValue(true)); }
    )*
    {
        return new SqlCancelJobs(s.end(this), ids);
    }
}

/** WAIT, or WAIT MATERIALIZED VIEW | SINK | INDEX | TABLE name */
SqlNode SqlWaitStatement() :
{
    final Span s;
    SqlObjectKind kind = null;
    SqlIdentifier id = null;
}
{
    <WAIT> { s = span(); }
    [
        (
            <MATERIALIZED> <VIEW> { kind = SqlObjectKind.MATERIALIZED_VIEW; }
        |
            <SINK> { kind = SqlObjectKind.SINK; }
        |
            <INDEX> { kind = SqlObjectKind.INDEX; }
        |
            <TABLE> { kind = SqlObjectKind.TABLE; }
        )
        id = CompoundIdentifier()
    ]
    {
        return id == null ? SqlWait.all(s.end(this)) : SqlWait.of(s.end(this), kind, id);
    }
}

SqlNode SqlFlushStatement() :
{
}
{
    <FLUSH> { return new SqlFlush(getPos()); }
}

/**
 * ALTER {MATERIALIZED VIEW | SINK | INDEX | SOURCE} name SET option {= | TO} {value | DEFAULT}, e.g.
 * BACKFILL_RATE_LIMIT = 1000 or a source's SOURCE_RATE_LIMIT = 500
 */
SqlNode SqlAlterObjectStatement() :
{
    final Span s;
    final SqlObjectKind kind;
    final SqlIdentifier id;
    final SqlIdentifier option;
    SqlNode value = null;
}
{
    <ALTER> { s = span(); }
    (
        <MATERIALIZED> <VIEW> { kind = SqlObjectKind.MATERIALIZED_VIEW; }
    |
        <SINK> { kind = SqlObjectKind.SINK; }
    |
        <INDEX> { kind = SqlObjectKind.INDEX; }
    |
        <SOURCE> { kind = SqlObjectKind.SOURCE; }
    )
    id = CompoundIdentifier()
    <SET>
    option = SimpleIdentifier()
    ( <EQ> | <TO> )
    (
        <DEFAULT_>
    |
        LOOKAHEAD(2) value = Literal()
    |
        value = SimpleIdentifier()
    )
    {
        return new SqlAlterObject(s.end(this), kind, id, option.getSimple(), value);
    }
}

/** PAUSE JOB 1002 or RESUME JOBS 1002, 1003: a backfill stopped where it is, or going on. */
SqlNode SqlPauseJobsStatement() :
{
    final Span s;
    final boolean resume;
    final List<Long> ids = new ArrayList<Long>();
    SqlNode id;
}
{
    (
        <PAUSE> { resume = false; }
    |
        <RESUME> { resume = true; }
    )
    { s = span(); }
    ( <JOBS> | <JOB> )
    id = UnsignedNumericLiteral() { ids.add(((SqlLiteral) id).longValue(true)); }
    (
        <COMMA>
        id = UnsignedNumericLiteral() { ids.add(((SqlLiteral) id).longValue(true)); }
    )*
    {
        return new SqlPauseJobs(s.end(this), ids, resume);
    }
}

/** EXPLAIN CREATE MATERIALIZED VIEW ... or EXPLAIN query, as PostgreSQL writes it (without PLAN FOR). */
SqlNode SqlExplainKafkaMvStatement() :
{
    final Span s;
    final Span c;
    final SqlNode statement;
}
{
    <EXPLAIN> { s = span(); }
    (
        <CREATE> { c = span(); }
        statement = SqlCreateMaterializedViewStatement(c, false)
    |
        statement = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    {
        return new SqlExplainStatement(s.end(this), statement);
    }
}

/**
 * PostgreSQL's JSON operators, {@code doc -> 'key'} and {@code doc ->> 'key'}, between two operands.
 * Calcite already has "->" as the lambda arrow; where a lambda may start, directly in a function's
 * arguments, {@code f(doc -> 'key')} is read as one, and {@code f((doc -> 'key'))} is not.
 */
void JsonArrow(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlOperator op;
}
{
    (
        <JSON_TEXT_ARROW> { op = io.kafkamv.compiler.functions.KafkaMvFunctions.JSON_TEXT_FIELD; }
    |
        <LAMBDA> { op = io.kafkamv.compiler.functions.KafkaMvFunctions.JSON_FIELD; }
    )
    {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(op, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/** PostgreSQL's {@code ts AT TIME ZONE zone}, a call of {@code timezone(zone, ts)} (KafkaMvFunctions.AT_TIME_ZONE). */
void AtTimeZone(List<Object> list, ExprContext exprContext, Span s) :
{
}
{
    <AT> <TIME> <ZONE> {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(io.kafkamv.compiler.functions.KafkaMvFunctions.AT_TIME_ZONE, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/** PostgreSQL's regular-expression match operators: ~, ~* (ignoring case), !~ and !~* (not matching). */
void RegexMatch(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlOperator op;
}
{
    (
        <REGEX_MATCH> { op = SqlStdOperatorTable.POSIX_REGEX_CASE_SENSITIVE; }
    |
        <REGEX_MATCH_CI> { op = SqlStdOperatorTable.POSIX_REGEX_CASE_INSENSITIVE; }
    |
        <REGEX_NOT_MATCH> { op = SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_SENSITIVE; }
    |
        <REGEX_NOT_MATCH_CI> { op = SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_INSENSITIVE; }
    )
    {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(op, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/**
 * PostgreSQL's bitwise and jsonb operators, all of the precedence PostgreSQL gives "any other operator"
 * (PostgresOperators): {@code | # >>} on integers, {@code ? ?| ?& @> #> #>>} and is-contained-in on jsonb. {@code &} and
 * {@code <<} are Calcite's tokens, made PostgreSQL's in topology-compiler/pom.xml.
 */
void OtherOperator(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlOperator op;
}
{
    (
        <VERTICAL_BAR> { op = io.kafkamv.compiler.functions.PostgresOperators.BIT_OR; }
    |
        <HASH> { op = io.kafkamv.compiler.functions.PostgresOperators.BIT_XOR; }
    |
        <RIGHT_SHIFT> { op = io.kafkamv.compiler.functions.PostgresOperators.SHIFT_RIGHT; }
    |
        <HOOK> { op = io.kafkamv.compiler.functions.PostgresOperators.JSONB_EXISTS; }
    |
        <JSONB_EXISTS_ANY> { op = io.kafkamv.compiler.functions.PostgresOperators.JSONB_EXISTS_ANY; }
    |
        <JSONB_EXISTS_ALL> { op = io.kafkamv.compiler.functions.PostgresOperators.JSONB_EXISTS_ALL; }
    |
        <JSONB_CONTAINS> { op = io.kafkamv.compiler.functions.PostgresOperators.JSONB_CONTAINS; }
    |
        <JSONB_CONTAINED> { op = io.kafkamv.compiler.functions.PostgresOperators.JSONB_CONTAINED; }
    |
        <JSONB_PATH> { op = io.kafkamv.compiler.functions.PostgresOperators.JSONB_PATH; }
    |
        <JSONB_TEXT_PATH> { op = io.kafkamv.compiler.functions.PostgresOperators.JSONB_TEXT_PATH; }
    )
    {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(op, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/** PostgreSQL's cast, {@code expr::type}: the same as {@code CAST(expr AS type)}. */
void InfixCast(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlDataTypeSpec type;
}
{
    <INFIX_CAST> {
        checkNonQueryExpression(exprContext);
    }
    (
        type = DataType()
    |
        // PostgreSQL's interval without units: '1 day 02:00'::interval.
        <INTERVAL> { type = new SqlDataTypeSpec(new SqlUserDefinedTypeNameSpec("INTERVAL", getPos()), getPos()); }
    )
    {
        list.add(new SqlParserUtil.ToTreeListItem(org.apache.calcite.sql.fun.SqlLibraryOperators.INFIX_CAST, getPos()));
        list.add(type);
    }
}

/**
 * PostgreSQL's typed literal, a type's name before a string (timestamptz '2026-01-01 00:00:00+00', int4 '1'): a
 * cast of the string, so its text is read with PostgreSQL's input forms as any cast's is.
 */
SqlNode PostgresTypedLiteral() :
{
    final Span s;
    final String type;
    final SqlNode text;
}
{
    <IDENTIFIER> { s = span(); type = token.image.toUpperCase(Locale.ROOT); }
    text = StringLiteral() {
        return SqlStdOperatorTable.CAST.createCall(s.end(this), text, new SqlDataTypeSpec(
            new SqlUserDefinedTypeNameSpec(new SqlIdentifier(type, s.pos()), s.pos()), s.pos()));
    }
}

/**
 * A word the grammar reserves, read as a column's name after AS, as PostgreSQL's ColLabel reads every keyword
 * there (SELECT 1 AS end). MEASURE keeps its meaning (AS MEASURE name); names and non-reserved words are
 * SimpleIdentifier's.
 */
JAVACODE boolean isReservedWordLabel(Token word) {
    return word.kind != MEASURE && word.kind != IDENTIFIER && word.image != null
        && word.image.matches("[A-Za-z_][A-Za-z_0-9]*");
}

JAVACODE SqlIdentifier ReservedWordLabel() {
    getNextToken();
    return new SqlIdentifier(unquotedIdentifier(), getPos());
}
