"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const constructs_1 = require("constructs");
const cdktf_1 = require("cdktf");
const s3_bucket_1 = require("@cdktf/provider-aws/lib/s3-bucket");
class Logs extends constructs_1.Construct {
    constructor(scope, id) {
        super(scope, id);
        new s3_bucket_1.S3Bucket(this, "Bucket", {
            bucketPrefix: "logs-",
        });
    }
}
class MyStack extends cdktf_1.TerraformStack {
    constructor(scope, id) {
        super(scope, id);
        new Logs(this, "Logs");
    }
}
const app = new cdktf_1.App();
new MyStack(app, "dev");
new MyStack(app, "prod");
app.synth();
//# sourceMappingURL=main.js.map