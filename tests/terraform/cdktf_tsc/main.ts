import { Construct } from "constructs";
import { App, TerraformStack } from "cdktf";
import { S3Bucket } from "@cdktf/provider-aws/lib/s3-bucket";

class Logs extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new S3Bucket(this, "Bucket", {
      bucketPrefix: "logs-",
    });
  }
}

class MyStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new Logs(this, "Logs");
  }
}

const app = new App();
new MyStack(app, "dev");
new MyStack(app, "prod");
app.synth();
