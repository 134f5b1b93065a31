package io.tributary.catalog.pg;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code pg_catalog} relations whose contents do not depend on Tributary's catalog, with
 * PostgreSQL 15's OIDs and columns: the catalogs of things Tributary does not have (shared comments,
 * privileges, extensions, inheritance, policies, publications, rules, triggers, casts and operators
 * of its own, text search, foreign data, large objects, security labels), which exist so that
 * tools' queries over them run and find nothing, and {@code pg_language} with PostgreSQL's built-in
 * languages. Built once per {@link PgCatalog}.
 */
final class PgFixedCatalogs {
    private PgFixedCatalogs() {}

    /** PostgreSQL's built-in languages: internal, c and sql (none is a procedural language). */
    private static final List<Object[]> LANGUAGES = List.of(
            new Object[] {12L, "internal", PgOids.SUPERUSER, false, false, 0L, 0L, 2246L, null},
            new Object[] {13L, "c", PgOids.SUPERUSER, false, false, 0L, 0L, 2247L, null},
            new Object[] {14L, "sql", PgOids.SUPERUSER, false, true, 0L, 0L, 2248L, null});

    static List<PgTable> tables() {
        List<PgTable> out = new ArrayList<>();
        empty(out, "pg_shdescription", 2396, "objoid oid, classoid oid, description text");
        empty(out, "pg_seclabel", 3596, "objoid oid, classoid oid, objsubid int4, provider text, label text");
        empty(
                out,
                "pg_seclabels",
                12012,
                "objoid oid, classoid oid, objsubid int4, objtype text, objnamespace oid, objname text, "
                        + "provider text, label text");
        empty(out, "pg_shseclabel", 3592, "objoid oid, classoid oid, provider text, label text");
        empty(out, "pg_auth_members", 1261, "roleid oid, member oid, grantor oid, admin_option bool");
        empty(out, "pg_db_role_setting", 2964, "setdatabase oid, setrole oid, setconfig text[]");
        empty(
                out,
                "pg_init_privs",
                3394,
                "objoid oid, classoid oid, objsubid int4, privtype char, initprivs aclitem[]");
        empty(
                out,
                "pg_default_acl",
                826,
                "oid oid, defaclrole oid, defaclnamespace oid, defaclobjtype char, defaclacl aclitem[]");
        table(
                out,
                "pg_extension",
                PgOids.PG_EXTENSION,
                "oid oid, extname name, extowner oid, extnamespace oid, extrelocatable bool, "
                        + "extversion text, extconfig oid[], extcondition text[]",
                () -> List.<Object[]>of(new Object[] {
                    PgOids.TRIBUTARY_EXTENSION,
                    "tributary",
                    PgOids.SUPERUSER,
                    PgOids.TRIBUTARY_CATALOG_NAMESPACE,
                    false,
                    "1.0",
                    null,
                    null
                }));
        empty(out, "pg_foreign_table", 3118, "ftrelid oid, ftserver oid, ftoptions text[]");
        empty(
                out,
                "pg_foreign_data_wrapper",
                2328,
                "oid oid, fdwname name, fdwowner oid, fdwhandler oid, fdwvalidator oid, fdwacl aclitem[], "
                        + "fdwoptions text[]");
        empty(
                out,
                "pg_foreign_server",
                1417,
                "oid oid, srvname name, srvowner oid, srvfdw oid, srvtype text, srvversion text, "
                        + "srvacl aclitem[], srvoptions text[]");
        empty(
                out,
                "pg_subscription",
                6100,
                "oid oid, subdbid oid, subskiplsn pg_lsn, subname name, subowner oid, subenabled bool, "
                        + "subbinary bool, substream char, subtwophasestate char, subdisableonerr bool, "
                        + "subconninfo text, subslotname name, subsynccommit text, subpublications text[]");
        empty(out, "pg_user_mapping", 1418, "oid oid, umuser oid, umserver oid, umoptions text[]");
        empty(out, "pg_inherits", 2611, "inhrelid oid, inhparent oid, inhseqno int4, inhdetachpending bool");
        empty(
                out,
                "pg_partitioned_table",
                3350,
                "partrelid oid, partstrat char, partnatts int2, partdefid oid, partattrs int2vector, "
                        + "partclass oidvector, partcollation oidvector, partexprs pg_node_tree");
        empty(
                out,
                "pg_policy",
                3256,
                "oid oid, polname name, polrelid oid, polcmd char, polpermissive bool, "
                        + "polroles oid[], polqual pg_node_tree, polwithcheck pg_node_tree");
        empty(
                out,
                "pg_statistic_ext",
                3381,
                "oid oid, stxrelid oid, stxname name, stxnamespace oid, "
                        + "stxowner oid, stxstattarget int4, stxkeys int2[], stxkind char[], stxexprs pg_node_tree");
        empty(
                out,
                "pg_publication",
                6104,
                "oid oid, pubname name, pubowner oid, puballtables bool, "
                        + "pubinsert bool, pubupdate bool, pubdelete bool, pubtruncate bool, pubviaroot bool");
        empty(
                out,
                "pg_publication_rel",
                6106,
                "oid oid, prpubid oid, prrelid oid, prqual pg_node_tree, prattrs int2[]");
        empty(out, "pg_publication_namespace", 6237, "oid oid, pnpubid oid, pnnspid oid");
        empty(
                out,
                "pg_rewrite",
                2618,
                "oid oid, rulename name, ev_class oid, ev_type char, ev_enabled char, is_instead bool, "
                        + "ev_qual pg_node_tree, ev_action pg_node_tree");
        empty(
                out,
                "pg_trigger",
                2620,
                "oid oid, tgrelid oid, tgparentid oid, tgname name, tgfoid oid, tgtype int2, tgenabled char, "
                        + "tgisinternal bool, tgconstrrelid oid, tgconstrindid oid, tgconstraint oid, "
                        + "tgdeferrable bool, tginitdeferred bool, tgnargs int2, tgattr int2vector, tgargs bytea, "
                        + "tgqual pg_node_tree, tgoldtable name, tgnewtable name");
        empty(
                out,
                "pg_event_trigger",
                3466,
                "oid oid, evtname name, evtevent name, evtowner oid, evtfoid oid, evtenabled char, evttags text[]");
        empty(
                out,
                "pg_cast",
                2605,
                "oid oid, castsource oid, casttarget oid, castfunc oid, castcontext char, castmethod char");
        empty(out, "pg_transform", 3576, "oid oid, trftype oid, trflang oid, trffromsql regproc, trftosql regproc");
        empty(
                out,
                "pg_operator",
                2617,
                "oid oid, oprname name, oprnamespace oid, oprowner oid, oprkind char, oprcanmerge bool, "
                        + "oprcanhash bool, oprleft oid, oprright oid, oprresult oid, oprcom oid, oprnegate oid, "
                        + "oprcode regproc, oprrest regproc, oprjoin regproc");
        empty(
                out,
                "pg_opclass",
                2616,
                "oid oid, opcmethod oid, opcname name, opcnamespace oid, opcowner oid, opcfamily oid, "
                        + "opcintype oid, opcdefault bool, opckeytype oid");
        empty(out, "pg_opfamily", 2753, "oid oid, opfmethod oid, opfname name, opfnamespace oid, opfowner oid");
        empty(
                out,
                "pg_amop",
                2602,
                "oid oid, amopfamily oid, amoplefttype oid, amoprighttype oid, amopstrategy int2, "
                        + "amoppurpose char, amopopr oid, amopmethod oid, amopsortfamily oid");
        empty(
                out,
                "pg_amproc",
                2603,
                "oid oid, amprocfamily oid, amproclefttype oid, amprocrighttype oid, amprocnum int2, "
                        + "amproc regproc");
        empty(
                out,
                "pg_conversion",
                2607,
                "oid oid, conname name, connamespace oid, conowner oid, conforencoding int4, contoencoding int4, "
                        + "conproc regproc, condefault bool");
        empty(
                out,
                "pg_aggregate",
                2600,
                "aggfnoid regproc, aggkind char, aggnumdirectargs int2, aggtransfn regproc, aggfinalfn regproc, "
                        + "aggtranstype oid, agginitval text");
        empty(out, "pg_enum", 3501, "oid oid, enumtypid oid, enumsortorder float4, enumlabel name");
        empty(
                out,
                "pg_range",
                3541,
                "rngtypid oid, rngsubtype oid, rngmultitypid oid, rngcollation oid, rngsubopc oid, "
                        + "rngcanonical regproc, rngsubdiff regproc");
        empty(
                out,
                "pg_ts_parser",
                3601,
                "oid oid, prsname name, prsnamespace oid, prsstart regproc, prstoken regproc, prsend regproc, "
                        + "prsheadline regproc, prslextype regproc");
        empty(
                out,
                "pg_ts_template",
                3764,
                "oid oid, tmplname name, tmplnamespace oid, tmplinit regproc, tmpllexize regproc");
        empty(
                out,
                "pg_ts_dict",
                3600,
                "oid oid, dictname name, dictnamespace oid, dictowner oid, dicttemplate oid, dictinitoption text");
        empty(out, "pg_ts_config", 3602, "oid oid, cfgname name, cfgnamespace oid, cfgowner oid, cfgparser oid");
        empty(out, "pg_largeobject_metadata", 2995, "oid oid, lomowner oid, lomacl aclitem[]");
        table(
                out,
                "pg_language",
                2612,
                "oid oid, lanname name, lanowner oid, lanispl bool, lanpltrusted bool, lanplcallfoid oid, "
                        + "laninline oid, lanvalidator oid, lanacl aclitem[]",
                () -> LANGUAGES);
        return out;
    }

    private static void empty(List<PgTable> out, String name, long oid, String columns) {
        table(out, name, oid, columns, List::of);
    }

    private static void table(List<PgTable> out, String name, long oid, String columns, Supplier<List<Object[]>> rows) {
        out.add(new PgTable(PgCatalog.SCHEMA, name, oid, "r", PgColumn.parse(columns), rows));
    }
}
