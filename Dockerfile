# The kafka-mv service image. Build the jar first, then the image:
#   mvn -B -DskipTests -pl ddl-service -am package
#   docker build -t <registry>/kafka-mv:0.1.0 . && docker push <registry>/kafka-mv:0.1.0
# It listens on 0.0.0.0, so it starts only with passwords and tokens (mount the files and set
# KAFKA_MV_PG_USERS_FILE and KAFKA_MV_REST_TOKENS_FILE) or with KAFKA_MV_AUTH=trust, given on purpose.
FROM eclipse-temurin:17-jre
RUN useradd --uid 10001 --create-home --shell /usr/sbin/nologin kafka-mv \
    && mkdir -p /app /data && chown kafka-mv /data
COPY ddl-service/target/kafka-mv.jar /app/kafka-mv.jar
ENV KAFKA_MV_BIND_ADDRESS=0.0.0.0 \
    KAFKA_MV_DATA_DIR=/data \
    KAFKA_MV_JAVA_OPTS="-XX:MaxRAMPercentage=60 -XX:+ExitOnOutOfMemoryError"
USER 10001
VOLUME /data
EXPOSE 4566 8088
# exec: the JVM gets SIGTERM from Kubernetes and shuts down cleanly.
ENTRYPOINT ["sh", "-c", "exec java $KAFKA_MV_JAVA_OPTS -jar /app/kafka-mv.jar \"$@\"", "kafka-mv"]
